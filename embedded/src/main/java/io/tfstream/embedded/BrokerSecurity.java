package io.tfstream.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The TLS material and SASL users of a secured {@link EmbeddedKafka}: a broker certificate for
 * {@code localhost} (SAN dns:localhost and ip:127.0.0.1, so clients keep hostname verification on),
 * a client certificate for mutual TLS, their trust stores, and a SCRAM-SHA-512 user, with random
 * passwords kept in an owner-only {@code secrets.properties}. Certificates come from the JDK's
 * {@code keytool}; everything lives in one directory.
 */
public final class BrokerSecurity {
    /** The SCRAM user of clients on the SASL_SSL listener. */
    public static final String SCRAM_USER = "tfstream";

    /** The principal of the client certificate on the mutual TLS listener (its CN). */
    public static final String TLS_USER = "tfstream-client";

    /** The SASL mechanism of the SASL_SSL listener. */
    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

    private static final String SCRAM_MODULE =
            "org.apache.kafka.common.security.scram.ScramLoginModule";

    private final Path dir;
    private final String storePassword;
    private final String scramPassword;

    private BrokerSecurity(Path dir, String storePassword, String scramPassword) {
        this.dir = dir;
        this.storePassword = storePassword;
        this.scramPassword = scramPassword;
    }

    /** Generates the key stores, trust stores and passwords into {@code dir}. */
    public static BrokerSecurity create(Path dir) throws IOException {
        Files.createDirectories(dir);
        SecureRandom random = new SecureRandom();
        BrokerSecurity s = new BrokerSecurity(dir, password(random), password(random));
        s.keyPair("broker.p12", "broker", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
        s.export("broker.p12", "broker", "broker.pem");
        s.trust("truststore.p12", "broker.pem");
        s.keyPair("client.p12", "client", "CN=" + TLS_USER, null);
        s.export("client.p12", "client", "client.pem");
        s.trust("broker-truststore.p12", "client.pem");
        // A trust store without the broker's certificate: what an untrusted broker looks like.
        s.trust("untrusted.p12", "client.pem");
        Properties secrets = new Properties();
        secrets.setProperty("store.password", s.storePassword);
        secrets.setProperty("scram.password", s.scramPassword);
        secrets.setProperty("scram.jaas", s.jaas(s.scramPassword));
        StringBuilder text = new StringBuilder();
        for (String k : secrets.stringPropertyNames()) {
            text.append(k).append('=').append(escape(secrets.getProperty(k))).append('\n');
        }
        OwnerOnlyFiles.write(s.secretsFile(), text.toString());
        return s;
    }

    /** The owner-only properties file with the passwords: store.password, scram.*. */
    public Path secretsFile() {
        return dir.resolve("secrets.properties");
    }

    /** The PKCS12 key store with the broker's key and certificate (for localhost). */
    public Path keyStore() {
        return dir.resolve("broker.p12");
    }

    /** The PKCS12 trust store that holds the broker's certificate. */
    public Path trustStore() {
        return dir.resolve("truststore.p12");
    }

    /** The broker's certificate in PEM, what a client outside Java trusts. */
    public Path brokerCertificatePem() {
        return dir.resolve("broker.pem");
    }

    /** The password of every key and trust store here. */
    public String storePassword() {
        return storePassword;
    }

    /** The SCRAM user's password. */
    public String scramPassword() {
        return scramPassword;
    }

    /** The broker's settings for listeners SASL_SSL (SCRAM) and SSL (client certificates). */
    Properties brokerProperties() {
        Properties p = new Properties();
        p.setProperty("ssl.keystore.location", dir.resolve("broker.p12").toString());
        p.setProperty("ssl.keystore.type", "PKCS12");
        p.setProperty("ssl.keystore.password", storePassword);
        p.setProperty("ssl.key.password", storePassword);
        p.setProperty("ssl.truststore.location", dir.resolve("broker-truststore.p12").toString());
        p.setProperty("ssl.truststore.type", "PKCS12");
        p.setProperty("ssl.truststore.password", storePassword);
        p.setProperty("listener.name.ssl.ssl.client.auth", "required");
        p.setProperty("listener.name.sasl_ssl.sasl.enabled.mechanisms", SCRAM_MECHANISM + ",PLAIN");
        p.setProperty(
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                SCRAM_MODULE + " required;");
        // PLAIN for the same user and password, for clients whose SCRAM fails (docs/python.md).
        p.setProperty(
                "listener.name.sasl_ssl.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_"
                        + SCRAM_USER
                        + "=\""
                        + scramPassword
                        + "\";");
        // The certificate's CN is the principal: User:tfstream-client.
        p.setProperty("ssl.principal.mapping.rules", "RULE:^CN=([^,]*).*$/$1/,DEFAULT");
        return p;
    }

    /** What formatting the log directory adds: the SCRAM user. */
    List<String> scramCredentials() {
        return List.of(
                SCRAM_MECHANISM + "=[name=" + SCRAM_USER + ",password=" + scramPassword + "]");
    }

    /** Client settings for the SASL_SSL listener, secrets inline. */
    public Properties scramClient() {
        Properties p = trusting("truststore.p12", storePassword);
        p.setProperty("security.protocol", "SASL_SSL");
        p.setProperty("sasl.mechanism", SCRAM_MECHANISM);
        p.setProperty("sasl.jaas.config", jaas(scramPassword));
        return p;
    }

    /** Client settings for the SASL_SSL listener with a wrong password. */
    public Properties scramClientWithWrongPassword() {
        Properties p = scramClient();
        p.setProperty("sasl.jaas.config", jaas(scramPassword + "-wrong"));
        return p;
    }

    /** Client settings for the SSL listener with the client certificate, secrets inline. */
    public Properties tlsClient() {
        Properties p = trusting("truststore.p12", storePassword);
        p.setProperty("security.protocol", "SSL");
        p.setProperty("ssl.keystore.location", dir.resolve("client.p12").toString());
        p.setProperty("ssl.keystore.type", "PKCS12");
        p.setProperty("ssl.keystore.password", storePassword);
        p.setProperty("ssl.key.password", storePassword);
        return p;
    }

    /** {@link #tlsClient()} with a trust store that does not hold the broker's certificate. */
    public Properties tlsClientNotTrustingTheBroker() {
        Properties p = tlsClient();
        p.setProperty("ssl.truststore.location", dir.resolve("untrusted.p12").toString());
        return p;
    }

    /**
     * {@code client} with every secret replaced by a reference into {@link #secretsFile()}: what a
     * job is given.
     */
    public Properties referenced(Properties client) {
        Properties p = new Properties();
        p.putAll(client);
        String file = secretsFile().toString();
        for (String k :
                List.of("ssl.keystore.password", "ssl.key.password", "ssl.truststore.password")) {
            if (p.containsKey(k)) {
                p.setProperty(k, "${file:" + file + ":store.password}");
            }
        }
        if (p.containsKey("sasl.jaas.config")) {
            p.setProperty("sasl.jaas.config", "${file:" + file + ":scram.jaas}");
        }
        return p;
    }

    private Properties trusting(String store, String password) {
        Properties p = new Properties();
        p.setProperty("ssl.truststore.location", dir.resolve(store).toString());
        p.setProperty("ssl.truststore.type", "PKCS12");
        p.setProperty("ssl.truststore.password", password);
        return p;
    }

    private String jaas(String password) {
        return SCRAM_MODULE
                + " required username=\""
                + SCRAM_USER
                + "\" password=\""
                + password
                + "\";";
    }

    private void keyPair(String store, String alias, String dname, String san) throws IOException {
        List<String> more =
                new ArrayList<>(
                        List.of(
                                "-keypass",
                                storePassword,
                                "-alias",
                                alias,
                                "-keyalg",
                                "EC",
                                "-groupname",
                                "secp256r1",
                                "-dname",
                                dname,
                                "-validity",
                                "30"));
        if (san != null) {
            more.add("-ext");
            more.add(san);
        }
        keytool("-genkeypair", store, more);
    }

    private void export(String store, String alias, String pem) throws IOException {
        keytool(
                "-exportcert",
                store,
                List.of("-alias", alias, "-rfc", "-file", dir.resolve(pem).toString()));
    }

    private void trust(String store, String pem) throws IOException {
        keytool(
                "-importcert",
                store,
                List.of(
                        "-noprompt",
                        "-alias",
                        pem.replace(".pem", ""),
                        "-file",
                        dir.resolve(pem).toString()));
    }

    /** Runs keytool's {@code command} on PKCS12 store {@code store} of this directory. */
    private void keytool(String command, String store, List<String> more) throws IOException {
        List<String> args = new ArrayList<>();
        args.addAll(
                List.of(
                        command,
                        "-keystore",
                        dir.resolve(store).toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        storePassword));
        args.addAll(more);
        keytool(args);
    }

    private static void keytool(List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(
                        "keytool "
                                + args.get(0)
                                + " failed: "
                                + new String(out, StandardCharsets.UTF_8).trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        } finally {
            p.destroy();
        }
    }

    private static String password(SecureRandom random) {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** A properties-file value: backslashes and quotes kept as they are read back. */
    private static String escape(String v) {
        return v.replace("\\", "\\\\");
    }
}
