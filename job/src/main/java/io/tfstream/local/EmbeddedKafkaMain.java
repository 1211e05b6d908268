package io.tfstream.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs {@link EmbeddedKafka} as a process of its own, for tests outside the JVM (the Python
 * client's): {@code java -cp tfstream-job-all.jar io.tfstream.local.EmbeddedKafkaMain}. Prints
 * {@code bootstrap.servers=localhost:PORT} on stdout once the broker accepts connections, then
 * serves until its standard input is closed (so the broker ends with the process that started it)
 * or it is terminated; either way it shuts the broker down and deletes its log directory.
 */
public final class EmbeddedKafkaMain {
    /** The broker's transaction.max.timeout.ms: room for a test's long transactions. */
    private static final long TRANSACTION_MAX_TIMEOUT_MS = 15 * 60 * 1000L;

    private EmbeddedKafkaMain() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 0) {
            System.err.println("usage: EmbeddedKafkaMain (no arguments; stops when stdin closes)");
            System.exit(2);
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(TRANSACTION_MAX_TIMEOUT_MS);
        Thread stop = new Thread(kafka::close, "embedded-kafka-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.println("bootstrap.servers=" + kafka.bootstrapServers());
        InputStream in = System.in;
        while (in.read() != -1) {
            // anything written to stdin is ignored; only its end matters
        }
        System.exit(0);
    }
}
