package io.tfstream.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.convert.InputFormat;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobOptions;
import io.tfstream.sample.SeedDataset;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job settings of {@code tfstream local}: the run's own, its defaults, then the user's. */
class LocalJobSettingsTest {
    @TempDir Path dir;
    private Path schema;

    @BeforeEach
    void writeSchema() throws Exception {
        schema = Files.write(dir.resolve("schema.pbtxt"), SeedDataset.schemaPbtxt());
    }

    @Test
    void theRunsOwnOptionsAreRefusedInSet() {
        for (ConfigOption<?> owned :
                List.of(
                        JobOptions.SOURCE_BOOTSTRAP_SERVERS,
                        JobOptions.SOURCE_TOPICS,
                        JobOptions.SOURCE_TOPIC_PATTERN,
                        JobOptions.SOURCE_TYPE,
                        JobOptions.DLQ_TOPIC,
                        JobOptions.VALIDATION_ALERTS_TOPIC,
                        JobOptions.SHARDS_PATH,
                        JobOptions.SPEC_PATH,
                        JobOptions.PARALLELISM)) {
            LocalRun.UsageException e =
                    assertThrows(
                            LocalRun.UsageException.class,
                            () -> config(List.of(owned.key() + "=x"), null, null),
                            owned.key());
            assertEquals(
                    owned.key()
                            + " is set by tfstream local itself (see its options: --broker,"
                            + " --schema, --feature-spec, --parallelism, --s3); remove it from"
                            + " --config/--set",
                    e.getMessage());
        }
    }

    @Test
    void theRunsDefaultsGiveWayToSet() {
        JobConfig defaults = config(List.of(), null, null);
        assertEquals(Duration.ofSeconds(1), defaults.get(JobOptions.CHECKPOINT_INTERVAL));
        assertEquals("tfstream-local", defaults.get(JobOptions.JOB_NAME));
        assertEquals(List.of("t"), defaults.get(JobOptions.SOURCE_TOPICS));
        assertEquals(schema.toString(), defaults.get(JobOptions.SCHEMA_PATH));
        assertEquals(
                dir.resolve("out/shards").toUri().toString(), defaults.get(JobOptions.SHARDS_PATH));
        JobConfig set = config(List.of("checkpoint.interval=5 s", "job.name=mine"), null, null);
        assertEquals(Duration.ofSeconds(5), set.get(JobOptions.CHECKPOINT_INTERVAL));
        assertEquals("mine", set.get(JobOptions.JOB_NAME));
    }

    @Test
    void filesAreReadByTheJobAndTopicsAreRefused() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        JobConfig c = config(List.of(), files, null);
        assertTrue(c.get(JobOptions.SOURCE_TYPE).toString().equalsIgnoreCase("files"));
        assertEquals(List.of(files.toUri().toString()), c.get(JobOptions.SOURCE_FILES_PATHS));
        assertFalse(c.contains(JobOptions.SOURCE_TOPICS));
        assertThrows(
                LocalRun.UsageException.class,
                () -> config(List.of(JobOptions.SOURCE_TOPICS.key() + "=t"), files, null));
    }

    @Test
    void shardsOnS3GoUnderTheRunsPrefix() {
        Path credentials = dir.resolve("s3.properties");
        JobConfig c =
                config(
                        List.of(),
                        null,
                        new LocalOptions.S3Target("http://127.0.0.1:9", "b", credentials, true));
        assertEquals("s3://b/tfstream-local/run-1", c.get(JobOptions.SHARDS_PATH));
        assertEquals("http://127.0.0.1:9", c.get(JobOptions.S3_ENDPOINT));
        assertEquals(credentials.toString(), c.get(JobOptions.S3_CREDENTIALS_FILE));
        assertTrue(c.get(JobOptions.S3_PATH_STYLE_ACCESS));
    }

    private JobConfig config(List<String> sets, Path files, LocalOptions.S3Target s3) {
        return config(sets, files, s3, LocalBroker.of("localhost:9", null));
    }

    /**
     * A {@code --broker-config} file as Kafka's tools take it, secrets inline: the job gets every
     * setting for its consumer and producers, each secret as a reference to its key in the file.
     */
    @Test
    void brokerConfigSecretsReachTheJobAsReferencesToTheFile() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(
                file,
                "security.protocol=SASL_SSL\n"
                        + "sasl.mechanism=SCRAM-SHA-512\n"
                        + "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule"
                        + " required username=\"u\" password=\"pw-1234\";\n"
                        + "ssl.truststore.location=/etc/kafka/trust.p12\n"
                        + "ssl.truststore.password=store-5678\n");
        JobConfig c = config(List.of(), null, null, LocalBroker.of("broker:9093", file));
        String f = file.toAbsolutePath().toString();
        for (java.util.Properties p : List.of(c.sourceProperties(), c.outputProperties())) {
            assertEquals("SASL_SSL", p.getProperty("security.protocol"));
            assertEquals("SCRAM-SHA-512", p.getProperty("sasl.mechanism"));
            assertEquals("/etc/kafka/trust.p12", p.getProperty("ssl.truststore.location"));
            assertEquals("${file:" + f + ":sasl.jaas.config}", p.getProperty("sasl.jaas.config"));
            assertEquals(
                    "${file:" + f + ":ssl.truststore.password}",
                    p.getProperty("ssl.truststore.password"));
            assertEquals(f, p.getProperty("config.providers.file.param.allowed.paths"));
        }
        assertEquals("broker:9093", c.get(JobOptions.SOURCE_BOOTSTRAP_SERVERS));
        assertFalse(c.describe().contains("pw-1234"));
        assertFalse(c.describe().contains("store-5678"));
    }

    private JobConfig config(
            List<String> sets, Path files, LocalOptions.S3Target s3, LocalBroker broker) {
        LocalOptions o =
                new LocalOptions(
                        schema,
                        null,
                        null,
                        null,
                        0,
                        1,
                        dir.resolve("out"),
                        2,
                        2,
                        Compression.NONE,
                        null,
                        sets,
                        null,
                        null,
                        null,
                        s3,
                        false,
                        0,
                        null,
                        files,
                        InputFormat.EXAMPLE,
                        null,
                        0);
        return new LocalJobSettings(o, schema, dir.resolve("out/shards"), "run-1")
                .config(broker, new LocalTopics("t", "d", "r", "b", "a"), s3);
    }
}
