package io.tfstream.embedded;

import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * A real single-node KRaft Kafka broker (combined broker and controller) inside this JVM, on free
 * localhost ports, with its log directory in a temporary directory that is deleted on close: what
 * {@code tfstream local} runs against when no {@code --broker} is given. The broker's classes come
 * from a jar of their own ({@link BrokerJar}); this class talks to it as any client does.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final AutoCloseable server;
    private final Path dir;
    private final String bootstrapServers;
    private final BrokerSecurity security;
    private final String saslSslServers;
    private final String sslServers;

    private EmbeddedKafka(
            AutoCloseable server,
            Path dir,
            String bootstrapServers,
            BrokerSecurity security,
            String saslSslServers,
            String sslServers) {
        this.server = server;
        this.dir = dir;
        this.bootstrapServers = bootstrapServers;
        this.security = security;
        this.saslSslServers = saslSslServers;
        this.sslServers = sslServers;
    }

    /**
     * Formats a fresh log directory and starts the broker; returns once its listener accepts
     * connections. {@code transactionMaxTimeoutMs} is the broker's transaction.max.timeout.ms.
     */
    public static EmbeddedKafka start(long transactionMaxTimeoutMs) throws IOException {
        return start(transactionMaxTimeoutMs, false, Map.of());
    }

    /** The same with broker settings of the caller's on top (e.g. {@code log.retention.ms}). */
    public static EmbeddedKafka start(long transactionMaxTimeoutMs, Map<String, String> settings)
            throws IOException {
        return start(transactionMaxTimeoutMs, false, settings);
    }

    /**
     * A broker with two more listeners, both authenticated and authorized: SASL_SSL with a
     * SCRAM-SHA-512 user and SSL with client certificates (see {@link BrokerSecurity}); Kafka's
     * {@code StandardAuthorizer} allows nothing without an ACL there. The plaintext listener of
     * {@link #bootstrapServers()} is the administrator's (a super user) for setting up topics and
     * ACLs.
     */
    public static EmbeddedKafka startSecured(long transactionMaxTimeoutMs) throws IOException {
        return start(transactionMaxTimeoutMs, true, Map.of());
    }

    private static EmbeddedKafka start(
            long transactionMaxTimeoutMs, boolean secured, Map<String, String> settings)
            throws IOException {
        Path dir = Files.createTempDirectory("tfstream-kafka");
        try {
            int brokerPort = freePort();
            int controllerPort = freePort();
            BrokerSecurity security = secured ? BrokerSecurity.create(dir.resolve("tls")) : null;
            int saslPort = secured ? freePort() : -1;
            int sslPort = secured ? freePort() : -1;
            Properties p = new Properties();
            p.setProperty("process.roles", "broker,controller");
            p.setProperty("node.id", "1");
            p.setProperty("controller.quorum.bootstrap.servers", "localhost:" + controllerPort);
            p.setProperty(
                    "listeners",
                    "PLAINTEXT://localhost:"
                            + brokerPort
                            + ",CONTROLLER://localhost:"
                            + controllerPort);
            p.setProperty("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
            p.setProperty("controller.listener.names", "CONTROLLER");
            p.setProperty(
                    "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            p.setProperty("log.dirs", dir.resolve("logs").toString());
            p.setProperty("offsets.topic.replication.factor", "1");
            p.setProperty("offsets.topic.num.partitions", "3");
            p.setProperty("transaction.state.log.replication.factor", "1");
            p.setProperty("transaction.state.log.min.isr", "1");
            p.setProperty("transaction.state.log.num.partitions", "3");
            p.setProperty("group.initial.rebalance.delay.ms", "0");
            p.setProperty("auto.create.topics.enable", "false");
            p.setProperty("transaction.max.timeout.ms", Long.toString(transactionMaxTimeoutMs));
            if (secured) {
                String secure = ",SASL_SSL://localhost:" + saslPort + ",SSL://localhost:" + sslPort;
                p.setProperty("listeners", p.getProperty("listeners") + secure);
                p.setProperty(
                        "advertised.listeners", p.getProperty("advertised.listeners") + secure);
                p.setProperty(
                        "listener.security.protocol.map",
                        p.getProperty("listener.security.protocol.map")
                                + ",SASL_SSL:SASL_SSL,SSL:SSL");
                p.setProperty("inter.broker.listener.name", "PLAINTEXT");
                p.setProperty(
                        "authorizer.class.name",
                        "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
                // The plaintext and controller listeners (loopback only) are the administrator's.
                p.setProperty("super.users", "User:ANONYMOUS");
                p.setProperty("allow.everyone.if.no.acl.found", "false");
                p.putAll(security.brokerProperties());
            }
            p.putAll(settings);
            Path config = dir.resolve("server.properties");
            try (Writer w = Files.newBufferedWriter(config)) {
                p.store(w, "tfstream local: embedded broker");
            }
            AutoCloseable server =
                    BrokerJar.start(config, secured ? security.scramCredentials() : List.of());
            EmbeddedKafka kafka =
                    new EmbeddedKafka(
                            server,
                            dir,
                            "localhost:" + brokerPort,
                            security,
                            secured ? "localhost:" + saslPort : null,
                            secured ? "localhost:" + sslPort : null);
            try {
                kafka.awaitListener(brokerPort);
                if (secured) {
                    kafka.awaitListener(saslPort);
                    kafka.awaitListener(sslPort);
                }
            } catch (IOException | RuntimeException e) {
                kafka.close();
                throw e;
            }
            return kafka;
        } catch (IOException | RuntimeException e) {
            FileTrees.deleteQuietly(dir);
            throw e;
        }
    }

    /** {@code host:port} of the broker's plaintext listener (a super user's on a secured one). */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** {@code host:port} of the SASL_SSL (SCRAM) listener of a secured broker. */
    public String saslSslServers() {
        return requireSecured(saslSslServers);
    }

    /** {@code host:port} of the mutual-TLS listener of a secured broker. */
    public String sslServers() {
        return requireSecured(sslServers);
    }

    /** The TLS material and users of a secured broker. */
    public BrokerSecurity security() {
        return requireSecured(security);
    }

    /**
     * Adds {@code acls} through the plaintext listener (a super user's on a secured broker) and
     * returns once the authorizer applies them; throws naming them otherwise.
     */
    public void grant(Collection<AclBinding> acls) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
            // The authorizer applies new ACLs once the metadata reaches the broker.
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (!admin.describeAcls(AclBindingFilter.ANY)
                    .values()
                    .get(30, TimeUnit.SECONDS)
                    .containsAll(acls)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the broker did not apply " + acls);
                }
                Thread.sleep(50);
            }
        }
    }

    private <T> T requireSecured(T value) {
        if (value == null) {
            throw new IllegalStateException("not a secured broker: start it with startSecured");
        }
        return value;
    }

    private void awaitListener(int port) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("localhost", port), 500);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException(
                            "the embedded Kafka broker did not open port "
                                    + port
                                    + " within "
                                    + START_TIMEOUT.toSeconds()
                                    + " s",
                            e);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while the broker started", ie);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (Exception e) {
            throw new IllegalStateException("the embedded Kafka broker did not stop cleanly", e);
        } finally {
            FileTrees.deleteQuietly(dir);
        }
    }
}
