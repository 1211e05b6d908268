package io.tfstream.local;

import io.tfstream.embedded.BrokerSecurity;
import io.tfstream.embedded.EmbeddedKafka;
import io.tfstream.job.KafkaAcls;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Runs {@link EmbeddedKafka} as a process of its own, for tests outside the JVM (the Python
 * client's): {@code java -cp tfstream-cli.jar io.tfstream.local.EmbeddedKafkaMain}. Prints {@code
 * bootstrap.servers=localhost:PORT} on stdout once the broker accepts connections, then serves
 * until its standard input is closed (so the broker ends with the process that started it) or it is
 * terminated; either way it shuts the broker down and deletes its log directory.
 *
 * <p>With {@code --secured} the broker is {@link EmbeddedKafka#startSecured}'s, and the lines
 * before {@code bootstrap.servers=} (always the last) also name {@code sasl_ssl.servers=}, {@code
 * ssl.servers=}, {@code ca.pem=} (the broker's certificate), {@code secrets=} (the owner-only file
 * with {@code scram.password} and {@code store.password}) and {@code scram.user=}; a line {@code
 * acl TYPE NAME PATTERN PRINCIPAL OPERATION} on stdin adds that ACL (see {@link #grant}).
 */
public final class EmbeddedKafkaMain {
    /** The broker's transaction.max.timeout.ms: room for a test's long transactions. */
    private static final long TRANSACTION_MAX_TIMEOUT_MS = 15 * 60 * 1000L;

    private EmbeddedKafkaMain() {}

    public static void main(String[] args) throws IOException {
        boolean secured = args.length == 1 && args[0].equals("--secured");
        if (args.length != 0 && !secured) {
            System.err.println("usage: EmbeddedKafkaMain [--secured] (stops when stdin closes)");
            System.exit(2);
        }
        EmbeddedKafka kafka =
                secured
                        ? EmbeddedKafka.startSecured(TRANSACTION_MAX_TIMEOUT_MS)
                        : EmbeddedKafka.start(TRANSACTION_MAX_TIMEOUT_MS);
        Thread stop = new Thread(kafka::close, "embedded-kafka-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (secured) {
            out.println("sasl_ssl.servers=" + kafka.saslSslServers());
            out.println("ssl.servers=" + kafka.sslServers());
            out.println("ca.pem=" + kafka.security().brokerCertificatePem());
            out.println("secrets=" + kafka.security().secretsFile());
            out.println("scram.user=" + BrokerSecurity.SCRAM_USER);
        }
        out.println("bootstrap.servers=" + kafka.bootstrapServers());
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("acl ")) {
                out.println(grant(kafka, line.substring(4).trim()));
            }
        }
        System.exit(0);
    }

    /**
     * Adds the ACL {@code TYPE NAME PATTERN PRINCIPAL OPERATION} (e.g. {@code TOPIC t LITERAL
     * User:tfstream READ}) through the plaintext listener; the answer line is {@code acl ok} once
     * the broker applies it, or {@code acl failed: ...}.
     */
    private static String grant(EmbeddedKafka kafka, String spec) {
        String[] f = spec.split("\\s+");
        if (f.length != 5) {
            return "acl failed: want TYPE NAME PATTERN PRINCIPAL OPERATION, got " + spec;
        }
        try {
            kafka.grant(
                    List.of(
                            KafkaAcls.allow(
                                    f[3],
                                    ResourceType.fromString(f[0]),
                                    f[1],
                                    PatternType.fromString(f[2]),
                                    AclOperation.fromString(f[4]))));
            return "acl ok";
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return "acl failed: " + e;
        }
    }
}
