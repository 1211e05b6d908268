package io.tfstream.broker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node KRaft broker (combined broker and controller), started from another class loader:
 * {@link #start} takes and returns JDK types only, so that nothing of this Kafka release reaches
 * the caller's classes.
 */
public final class KraftBroker implements AutoCloseable {
    private final KafkaRaftServer server;

    private KraftBroker(KafkaRaftServer server) {
        this.server = server;
    }

    /**
     * Formats the log directory of the broker configured in {@code config} (a server.properties
     * file) with a fresh cluster id and the SCRAM users {@code scramCredentials} (StorageTool's
     * {@code --add-scram} values), then starts it.
     *
     * @return the running broker; {@code close()} stops it
     * @throws IOException naming StorageTool's output when formatting fails
     */
    public static AutoCloseable start(Path config, List<String> scramCredentials)
            throws IOException {
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        // Kafka loads configured classes (authorizer, login modules) through the context class
        // loader, and the broker's threads inherit it from this one.
        thread.setContextClassLoader(KraftBroker.class.getClassLoader());
        try {
            format(config, scramCredentials);
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(config)) {
                p.load(r);
            }
            KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(p), Time.SYSTEM);
            server.startup();
            return new KraftBroker(server);
        } finally {
            thread.setContextClassLoader(caller);
        }
    }

    private static void format(Path config, List<String> scramCredentials) throws IOException {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "format",
                                "-t",
                                Uuid.randomUuid().toString(),
                                "-c",
                                config.toString(),
                                "--standalone"));
        for (String credential : scramCredentials) {
            args.add("--add-scram");
            args.add(credential);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc;
        try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            rc = StorageTool.execute(args.toArray(String[]::new), ps);
        }
        if (rc != 0) {
            throw new IOException(
                    "formatting the embedded Kafka broker's log directory failed: "
                            + out.toString(StandardCharsets.UTF_8).trim());
        }
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }
}
