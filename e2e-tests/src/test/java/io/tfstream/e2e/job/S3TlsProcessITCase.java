package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.embedded.BrokerSecurity;
import io.tfstream.embedded.S3ProxyProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shards to an S3 endpoint over TLS, as a user runs it: {@code tfstream local --s3
 * https://localhost:PORT} in a JVM of its own against S3Proxy serving HTTPS with a certificate of a
 * private CA for localhost, the CA in the JVM's trust store ({@code javax.net.ssl.trustStore}, as
 * docs/operations.md says): every accepted record is in a shard on the store. Without the CA the
 * start-up probe refuses the store in one line naming the TLS failure, and nothing is written.
 */
class S3TlsProcessITCase {
    @TempDir Path dir;

    private record Run(int exitCode, String out, String err) {}

    private Run local(Path out, String endpoint, Path credentials, List<String> jvm)
            throws Exception {
        List<String> cmd = CliJar.command();
        cmd.addAll(1, jvm);
        cmd.addAll(
                List.of(
                        "local",
                        "--records",
                        "400",
                        "--corrupt-fraction",
                        "0.1",
                        "--s3",
                        endpoint,
                        "--s3-bucket",
                        "tls",
                        "--set",
                        "s3.credentials-file=" + credentials,
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0"));
        Path stdout = dir.resolve(out.getFileName() + ".out");
        Path stderr = dir.resolve(out.getFileName() + ".err");
        Process p =
                new ProcessBuilder(cmd)
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
        assertTrue(p.waitFor(4, TimeUnit.MINUTES), "tfstream local ends");
        return new Run(
                p.exitValue(),
                Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }

    @Test
    void shardsReachAnHttpsEndpointTrustedThroughTheJvmsTrustStore() throws Exception {
        BrokerSecurity tls = BrokerSecurity.create(dir.resolve("tls"));
        Path objects = dir.resolve("objects");
        try (S3ProxyProcess proxy =
                S3ProxyProcess.startTls(
                        Files.createDirectories(dir.resolve("s3proxy")),
                        objects,
                        tls.keyStore(),
                        tls.storePassword())) {
            proxy.createBucket("tls");
            assertTrue(proxy.endpoint().startsWith("https://localhost:"), proxy.endpoint());
            Path credentials = proxy.writeCredentials(dir.resolve("s3.properties"));

            Run untrusted =
                    local(dir.resolve("untrusted"), proxy.endpoint(), credentials, List.of());
            assertEquals(2, untrusted.exitCode(), untrusted.out() + untrusted.err());
            assertTrue(
                    untrusted.err().contains("PKIX") || untrusted.err().contains("certificat"),
                    untrusted.err());
            try (Stream<Path> files = Files.walk(objects)) {
                assertEquals(0, files.filter(Files::isRegularFile).count(), "nothing written");
            }

            Run trusted =
                    local(
                            dir.resolve("trusted"),
                            proxy.endpoint(),
                            credentials,
                            List.of(
                                    "-Djavax.net.ssl.trustStore=" + tls.trustStore(),
                                    "-Djavax.net.ssl.trustStoreType=PKCS12",
                                    "-Djavax.net.ssl.trustStorePassword=" + tls.storePassword()));
            assertEquals(0, trusted.exitCode(), trusted.out() + trusted.err());
            JsonNode summary =
                    new ObjectMapper()
                            .readTree(dir.resolve("trusted").resolve("summary.json").toFile());
            assertEquals(360, summary.get("accepted").asLong());
            assertEquals(360, summary.get("shard_records").asLong());
            assertTrue(
                    summary.get("shards").get(0).asText().startsWith("s3://tls/"),
                    summary.toString());
            try (Stream<Path> files = Files.walk(objects.resolve("tls"))) {
                assertTrue(
                        files.anyMatch(f -> f.getFileName().toString().endsWith(".tfrecord")),
                        "shards on the store");
            }
        }
    }
}
