package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** S3 options become the keys flink-s3-fs-hadoop reads; credentials from env or a file. */
class S3SettingsTest {
    @TempDir Path dir;

    private static Map<String, Object> base() {
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", "k:9092");
        m.put("source.topics", "in");
        m.put("schema.path", "s.pbtxt");
        m.put("dlq.topic", "dlq");
        m.put("shards.path", "s3://bucket/shards");
        m.put("s3.endpoint", "http://127.0.0.1:9000");
        m.put("s3.path-style-access", "true");
        return m;
    }

    @Test
    void endpointPathStyleAndCredentialsFromTheEnvironment() {
        Configuration flink = new Configuration();
        S3Settings.applyLocation(JobConfig.of(base()), flink);
        S3Settings.applyCredentials(
                JobConfig.of(base()),
                Map.of("AWS_ACCESS_KEY_ID", "id", "AWS_SECRET_ACCESS_KEY", "shh"),
                flink);
        assertEquals("http://127.0.0.1:9000", flink.getString("s3.endpoint", null));
        assertEquals("true", flink.getString("s3.path.style.access", null));
        assertEquals("id", flink.getString("s3.access-key", null));
        assertEquals("shh", flink.getString("s3.secret-key", null));
    }

    @Test
    void aCredentialsFileWinsAndItsProblemsNeverShowTheSecret() throws Exception {
        Path file = dir.resolve("s3.properties");
        Files.writeString(file, "access-key=fileid\nsecret-key=filesecret\n");
        Map<String, Object> m = base();
        m.put("s3.credentials-file", file.toString());
        Configuration flink = new Configuration();
        S3Settings.applyCredentials(
                JobConfig.of(m),
                Map.of("AWS_ACCESS_KEY_ID", "id", "AWS_SECRET_ACCESS_KEY", "shh"),
                flink);
        assertEquals("fileid", flink.getString("s3.access-key", null));
        assertEquals("filesecret", flink.getString("s3.secret-key", null));

        Files.writeString(file, "access-key=only-id\n");
        String e =
                assertThrows(
                                JobConfigException.class,
                                () ->
                                        S3Settings.applyCredentials(
                                                JobConfig.of(m), Map.of(), new Configuration()))
                        .getMessage();
        assertEquals("s3.credentials-file: " + file + " must hold access-key and secret-key", e);
        assertFalse(e.contains("only-id"));
    }

    /**
     * The job's Flink configuration is what its job graph carries and the web UI shows: endpoint
     * and path style, never a key; and a credentials file written by tfstream is its owner's only.
     */
    @Test
    void theJobsFlinkConfigurationCarriesNoCredentials() throws Exception {
        Path file =
                io.tfstream.embedded.S3ProxyProcess.writeCredentialsFile(
                        dir.resolve("owner-only.properties"), "MARKERACCESSID", "MARKERSECRET");
        assertEquals(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"),
                Files.getPosixFilePermissions(file));
        Map<String, Object> m = base();
        m.put("s3.credentials-file", file.toString());
        Configuration flink = JobLauncher.flinkConfiguration(JobConfig.of(m));
        assertEquals("http://127.0.0.1:9000", flink.getString("s3.endpoint", null));
        String all = flink.toMap().toString();
        assertFalse(all.contains("MARKER"), all);
        assertFalse(all.contains("access-key") || all.contains("secret-key"), all);
    }

    @Test
    void withoutCredentialsTheDefaultChainApplies() {
        Configuration flink = new Configuration();
        S3Settings.applyCredentials(JobConfig.of(new HashMap<>(base())), Map.of(), flink);
        assertNull(flink.getString("s3.access-key", null));
    }

    /** s3.server-side-encryption names the header's value; a KMS key needs a KMS algorithm. */
    @Test
    void serverSideEncryptionSettings() {
        java.util.function.Function<Map<String, Object>, JobConfig> of =
                extra -> {
                    Map<String, Object> m = new java.util.LinkedHashMap<>(base());
                    m.putAll(extra);
                    return JobConfig.of(m);
                };
        assertEquals(
                new io.tfstream.operators.shards.store.S3Encryption(null, null),
                S3Settings.encryption(of.apply(Map.of())));
        assertEquals(
                new io.tfstream.operators.shards.store.S3Encryption("AES256", null),
                S3Settings.encryption(of.apply(Map.of("s3.server-side-encryption", "sse-s3"))));
        assertEquals(
                new io.tfstream.operators.shards.store.S3Encryption("aws:kms", "alias/shards"),
                S3Settings.encryption(
                        of.apply(
                                Map.of(
                                        "s3.server-side-encryption", "SSE_KMS",
                                        "s3.sse-kms-key-id", "alias/shards"))));
        JobConfigException e =
                assertThrows(
                        JobConfigException.class,
                        () ->
                                S3Settings.encryption(
                                        of.apply(Map.of("s3.sse-kms-key-id", "alias/shards"))));
        assertTrue(e.getMessage().startsWith("s3.sse-kms-key-id needs"), e.getMessage());
    }
}
