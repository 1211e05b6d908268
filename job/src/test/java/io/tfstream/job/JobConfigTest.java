package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.BuiltSettings;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.LateRecords;
import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.SkewAction;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings: parsing, defaults, pass-through, and the errors that name key and accepted values. */
class JobConfigTest {
    @TempDir Path dir;

    private static Map<String, Object> minimal() {
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        m.put("source.topics", "in");
        m.put("schema.path", "schema.pbtxt");
        m.put("dlq.topic", "dlq");
        return m;
    }

    private static Duration skew(Map<String, Object> m) {
        return BuiltSettings.of(JobConfig.of(m).shards().shards("f")).maxBucketSkew();
    }

    private static String error(Map<String, Object> m) {
        return assertThrows(JobConfigException.class, () -> JobConfig.of(m)).getMessage();
    }

    @Test
    void aJobThatLeavesAnotherJobsTransactionsAloneLeavesItsUploadsAloneUnlessTold() {
        Map<String, Object> m = minimal();
        m.put("shards.path", "s3://bucket/shards");
        assertTrue(
                BuiltSettings.of(JobConfig.of(m).shards().shards("f")).adoptUploads(),
                "default: adopt");
        m.put("output.adopt-transactions", "false");
        assertTrue(
                !BuiltSettings.of(JobConfig.of(m).shards().shards("f")).adoptUploads(),
                "blue/green: leave the first job's uploads to it");
        m.put("shards.adopt-uploads", "true");
        assertTrue(
                BuiltSettings.of(JobConfig.of(m).shards().shards("f")).adoptUploads(),
                "set: as set");
        // on gs:// both jobs would commit the same objects: refused
        m.put("shards.path", "gs://bucket/shards");
        assertTrue(error(m).contains("on gs://: Flink's GCS writer continues"), error(m));
        m.remove("shards.adopt-uploads");
        assertTrue(!JobConfig.of(m).shards().adoptUploads(), "unset: leave them, accepted");
    }

    @Test
    void aDaliIndexMakesShardsUncompressedByDefaultAndRefusesCompression() {
        Map<String, Object> m = minimal();
        m.putAll(
                Map.of(
                        "shards.path", "file:///data/shards",
                        "shards.splits", "train:2,eval:1",
                        "shards.index", "dali"));
        assertEquals(
                io.tfstream.tfrecord.Compression.NONE,
                BuiltSettings.of(JobConfig.of(m).shards().shards("f")).compression(),
                "DALI reads uncompressed files, with data splits too");
        assertEquals(
                io.tfstream.api.model.ShardIndex.DALI,
                BuiltSettings.of(JobConfig.of(m).shards().shards("f")).index());
        m.put("shards.compression", "gzip");
        assertEquals(
                "shards.index: dali indexes uncompressed shards (DALI reads no compressed"
                        + " TFRecords); set shards.compression: none, not gzip",
                error(m));
        m.put("shards.index", "idx");
        assertTrue(error(m).contains("shards.index"), error(m));
    }

    @Test
    void tfxSplitsAreCheckedAndGzipByDefault() {
        Map<String, Object> m = minimal();
        m.put("shards.path", "file:///data/shards");
        assertEquals(
                io.tfstream.tfrecord.Compression.NONE,
                BuiltSettings.of(JobConfig.of(m).shards().shards("f")).compression());
        m.put("shards.splits", "train:2,eval:1");
        assertEquals(
                io.tfstream.tfrecord.Compression.GZIP,
                BuiltSettings.of(JobConfig.of(m).shards().shards("f")).compression(),
                "as TFX's ExampleGen writes its splits");
        m.put("shards.compression", "none");
        assertEquals(
                io.tfstream.tfrecord.Compression.NONE,
                BuiltSettings.of(JobConfig.of(m).shards().shards("f")).compression());
        m.put("shards.splits", "train:2,train:1");
        assertTrue(
                error(m).startsWith(
                                "invalid value 'train:2,train:1' for shards.splits: expected name:buckets"
                                        + " entries"),
                error(m));
        m.remove("shards.splits");
        m.put("shards.split-feature", "user");
        assertTrue(
                error(m).startsWith("shards.split-feature names the partition feature"), error(m));
        m.remove("shards.split-feature");
        m.put("shards.statistics", true);
        m.put("statistics.epsilon", 0.005);
        var statistics = BuiltSettings.of(JobConfig.of(m).shards().shards("f")).statistics();
        assertEquals(0.005, statistics.epsilon());
        assertEquals(null, statistics.weightFeature());
        assertFalse(statistics.report());
        m.put("shards.statistics-report", true);
        assertTrue(BuiltSettings.of(JobConfig.of(m).shards().shards("f")).statistics().report());
        m.put("shards.statistics", false);
        assertTrue(
                error(m).startsWith(
                                "shards.statistics-report: true writes each bucket's report beside"
                                        + " its statistics"),
                error(m));
        m.put("shards.statistics", true);
        m.remove("shards.statistics-report");
        m.put("shards.success-markers", false);
        assertTrue(
                error(m).startsWith(
                                "shards.statistics: true writes a bucket's statistics with its _SUCCESS"),
                error(m));
    }

    @Test
    void defaultsApplyToWhatIsNotSet() {
        JobConfig c = JobConfig.of(minimal());
        assertEquals(1024, c.get(JobOptions.BATCH_MAX_RECORDS));
        assertEquals(MemorySize.parse("8 mb"), c.get(JobOptions.BATCH_MAX_BYTES));
        assertEquals(Duration.ofMillis(200), c.get(JobOptions.BATCH_MAX_DELAY));
        assertEquals(1024, c.get(JobOptions.DLQ_MAX_ERROR_BYTES));
        assertEquals("committed", c.get(JobOptions.SOURCE_STARTING_OFFSETS));
        assertEquals(List.of("in"), c.get(JobOptions.SOURCE_TOPICS));
        assertEquals("localhost:9092", c.outputBootstrapServers());
        assertEquals(SchemaOptions.Kind.EXAMPLE, c.get(JobOptions.SCHEMA_KIND));
    }

    @Test
    void yamlNestedAndDottedKeysFlattenAndSetWins() throws Exception {
        Path yaml = dir.resolve("job.yaml");
        Files.writeString(
                yaml,
                "source:\n"
                        + "  bootstrap-servers: broker:9092\n"
                        + "  topics: [a, b]\n"
                        + "  properties:\n"
                        + "    security.protocol: SASL_SSL\n"
                        + "    sasl.jaas.config: ${file:/etc/kafka/secret-stuff.properties:jaas}\n"
                        + "schema.path: s.pbtxt\n"
                        + "schema.kind: sequence-example\n"
                        + "batch:\n"
                        + "  max-records: 10\n"
                        + "dlq.topic: dead\n"
                        + "flink:\n"
                        + "  restart-strategy.type: fixed-delay\n");
        JobConfig c =
                JobConfig.of(
                        JobConfigFiles.read(
                                yaml,
                                List.of("batch.max-records=20", "output.properties.linger.ms=5")));
        assertEquals(List.of("a", "b"), c.get(JobOptions.SOURCE_TOPICS));
        assertEquals(20, c.get(JobOptions.BATCH_MAX_RECORDS));
        assertEquals(SchemaOptions.Kind.SEQUENCE_EXAMPLE, c.get(JobOptions.SCHEMA_KIND));
        assertEquals("SASL_SSL", c.sourceProperties().getProperty("security.protocol"));
        assertEquals("5", c.outputProperties().getProperty("linger.ms"));
        assertEquals(Map.of("restart-strategy.type", "fixed-delay"), c.flinkSettings());
        assertEquals(
                "/etc/kafka/secret-stuff.properties",
                c.sourceProperties().getProperty("config.providers.file.param.allowed.paths"));
        String described = c.describe();
        assertTrue(described.contains("source.properties.security.protocol: SASL_SSL"));
        assertTrue(described.contains("source.properties.sasl.jaas.config: ******"), described);
        assertFalse(described.contains("secret-stuff"));
        assertFalse(c.toString().contains("secret-stuff"));
    }

    /**
     * Kafka client settings travel in the job graph: a setting Kafka types as a password is taken
     * only as a reference, resolved by the file and env config providers tfstream declares, limited
     * to the files and variables referred to; settings cannot declare providers of their own.
     */
    @Test
    void kafkaSecretsAreReferencesResolvedByTheProvidersTfstreamDeclares() {
        Map<String, Object> base = new java.util.LinkedHashMap<>(minimal());
        for (String key :
                List.of(
                        "source.properties.sasl.jaas.config",
                        "output.properties.ssl.keystore.password",
                        "output.properties.ssl.key.password",
                        "source.properties.ssl.truststore.password",
                        "source.properties.ssl.keystore.key")) {
            Map<String, Object> m = new java.util.LinkedHashMap<>(base);
            m.put(key, "inline-secret-1234");
            String msg = assertThrows(JobConfigException.class, () -> JobConfig.of(m)).getMessage();
            assertTrue(msg.startsWith(key + ": a secret is only taken as a reference"), msg);
            assertFalse(msg.contains("inline-secret-1234"), msg);
        }
        for (String key :
                List.of(
                        "source.properties.config.providers",
                        "output.properties.config.providers.vault.class")) {
            Map<String, Object> m = new java.util.LinkedHashMap<>(base);
            m.put(key, "x");
            String msg = assertThrows(JobConfigException.class, () -> JobConfig.of(m)).getMessage();
            assertTrue(msg.contains("config providers are tfstream's to declare"), msg);
        }
        Map<String, Object> other = new java.util.LinkedHashMap<>(base);
        other.put("source.properties.sasl.jaas.config", "${vault:secret/kafka:jaas}");
        assertTrue(
                assertThrows(JobConfigException.class, () -> JobConfig.of(other))
                        .getMessage()
                        .contains("only ${file:PATH:KEY} and ${env:NAME} are resolved"));

        Map<String, Object> ok = new java.util.LinkedHashMap<>(base);
        ok.put(
                "source.properties.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\""
                        + " password=\"${file:/run/secrets/kafka.properties:password}\";");
        ok.put("source.properties.ssl.truststore.password", "${env:TRUSTSTORE_PASSWORD}");
        ok.put("source.properties.ssl.keystore.password", "${file:/run/secrets/ks.properties:p}");
        ok.put("output.properties.ssl.key.password", "${env::KEY_PASSWORD}");
        ok.put("source.properties.sasl.login.refresh.buffer.seconds", "300");
        JobConfig c = JobConfig.of(ok);
        Properties source = c.sourceProperties();
        assertEquals("file,env", source.getProperty("config.providers"));
        assertEquals(
                "org.apache.kafka.common.config.provider.FileConfigProvider",
                source.getProperty("config.providers.file.class"));
        assertEquals(
                "/run/secrets/kafka.properties,/run/secrets/ks.properties",
                source.getProperty("config.providers.file.param.allowed.paths"));
        assertEquals(
                "\\QTRUSTSTORE_PASSWORD\\E",
                source.getProperty("config.providers.env.param.allowlist.pattern"));
        Properties output = c.outputProperties();
        assertEquals("env", output.getProperty("config.providers"));
        assertEquals(
                "\\QKEY_PASSWORD\\E",
                output.getProperty("config.providers.env.param.allowlist.pattern"));
        assertFalse(c.describe().contains("config.providers"), c.describe());
    }

    /** One rule for secrets: what is masked wherever settings are shown. */
    @Test
    void secretsAreKnownByTheirKeysAndPlacesOfSecretsAreNot() {
        for (String key :
                List.of(
                        "source.properties.sasl.jaas.config",
                        "source.properties.ssl.keystore.password",
                        "source.properties.ssl.keystore.key",
                        "source.properties.ssl.key.password",
                        "output.properties.basic.auth.user.info",
                        "source.properties.sasl.oauthbearer.client.credentials.client.secret",
                        "schema-registry.api-key",
                        "registry.apikey",
                        "flink.s3.access-key",
                        "flink.s3.secret-key",
                        "flink.fs.azure.account.key.x.blob.core.windows.net.private",
                        "source.properties.sasl.login.refresh.buffer.seconds",
                        "http.auth.header")) {
            assertTrue(Secrets.isSecret(key), key);
            assertEquals(Secrets.MASK, Secrets.shown(key, "value"));
        }
        for (String key :
                List.of(
                        "s3.credentials-file",
                        "source.properties.ssl.keystore.location",
                        "source.properties.sasl.mechanism",
                        "source.properties.security.protocol",
                        "source.properties.sasl.oauthbearer.token.endpoint.url",
                        "source.properties.sasl.login.callback.handler.class",
                        "output.properties.basic.auth.credentials.source",
                        "source.properties.ssl.keystore.type",
                        "batch.max-records")) {
            assertFalse(Secrets.isSecret(key), key);
        }
    }

    /**
     * Program arguments (where {@code --set} goes on a cluster) are kept in the JobManager's
     * configuration, which the web UI shows: secrets are refused there, without echoing them, and
     * taken from the configuration file or as a reference to a Kafka config provider.
     */
    @Test
    void aSecretOnTheCommandLineIsRefusedWithoutEchoingIt() {
        JobConfigException e =
                assertThrows(
                        JobConfigException.class,
                        () ->
                                JobConfigFiles.read(
                                        null,
                                        List.of(
                                                "source.properties.ssl.keystore.password=hunter2")));
        assertTrue(e.getMessage().startsWith("--set source.properties.ssl.keystore.password:"));
        assertTrue(e.getMessage().contains("--config file"), e.getMessage());
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        assertEquals(
                "${file:/etc/kafka/secrets.properties:password}",
                JobConfigFiles.read(
                                null,
                                List.of(
                                        "source.properties.ssl.keystore.password="
                                                + "${file:/etc/kafka/secrets.properties:password}"))
                        .get("source.properties.ssl.keystore.password"));
        assertEquals(
                "/etc/s3.properties",
                JobConfigFiles.read(null, List.of("s3.credentials-file=/etc/s3.properties"))
                        .get("s3.credentials-file"));
        String huge = "x".repeat(100_000);
        JobConfigException bad =
                assertThrows(
                        JobConfigException.class, () -> JobConfigFiles.read(null, List.of(huge)));
        assertTrue(bad.getMessage().length() < 200, bad.getMessage());
    }

    @Test
    void unknownKeysAreRejectedNamingTheOptionsOfTheirGroup() {
        Map<String, Object> m = minimal();
        m.put("batch.max-recrods", "5");
        String e = error(m);
        assertTrue(e.startsWith("unknown option 'batch.max-recrods'; options in 'batch.':"), e);
        assertTrue(e.contains("batch.max-records, batch.max-bytes, batch.max-delay"), e);
    }

    @Test
    void invalidValuesNameTheKeyAndWhatIsAccepted() {
        Map<String, Object> m = minimal();
        m.put("batch.max-records", "many");
        assertEquals("invalid value 'many' for batch.max-records: expected an integer", error(m));
        m = minimal();
        m.put("schema.kind", "proto");
        assertEquals(
                "invalid value 'proto' for schema.kind: expected one of example, sequence_example",
                error(m));
        m = minimal();
        m.put("batch.max-delay", "soon");
        assertEquals(
                "invalid value 'soon' for batch.max-delay: expected a duration (e.g. 200 ms, 10 s, 5 min)",
                error(m));
        m = minimal();
        m.put("source.starting-offsets", "timestamp:yesterday");
        assertEquals(
                "invalid value 'timestamp:yesterday' for source.starting-offsets: expected"
                        + " committed, earliest, latest or timestamp:<epoch ms>",
                error(m));
        m = minimal();
        m.put("dlq.max-fraction", "1.5");
        assertEquals("invalid value '1.5' for dlq.max-fraction: expected 0..1 (1: off)", error(m));
        m = minimal();
        m.put("batch.max-records", "0");
        assertEquals("invalid value '0' for batch.max-records: expected >= 1", error(m));
    }

    @Test
    void combinationsAreChecked() {
        Map<String, Object> m = minimal();
        m.put("source.topic-pattern", "in-.*");
        assertEquals("set exactly one of source.topics and source.topic-pattern", error(m));
        m = minimal();
        m.put("spec.path", "spec.json");
        assertEquals("set exactly one of schema.path and spec.path", error(m));
        m = minimal();
        m.remove("dlq.topic");
        assertTrue(error(m).startsWith("dlq.topic is required: Dead-letter topic"));
        m = minimal();
        m.put("event-time.source", "feature");
        assertEquals(
                "event-time.source: feature needs event-time.feature (an int64 feature)", error(m));
        m = minimal();
        m.remove("source.topics");
        m.put("source.topic-pattern", "in-(");
        assertTrue(error(m).startsWith("invalid value for source.topic-pattern"));
        assertEquals(
                "--set expects key=value, got 'batch.max-records'",
                assertThrows(
                                JobConfigException.class,
                                () -> JobConfigFiles.read(null, List.of("batch.max-records")))
                        .getMessage());
    }

    @Test
    void theGroupingKeyAsPayloadKeyNeedsWindows() {
        Map<String, Object> m = minimal();
        m.put("output.batches.key", "batch_key");
        assertEquals(
                "output.batches.key batch_key needs batch.mode event_time_window (batches closed"
                        + " by count, bytes or delay have no grouping key); use none or"
                        + " source_partition",
                error(m));
        m.put("batch.mode", "event_time_window");
        assertEquals(PayloadKeyMode.BATCH_KEY, JobConfig.of(m).get(JobOptions.OUTPUT_BATCHES_KEY));
    }

    @Test
    void theWindowBufferBoundIsASizeOfAtLeastOneByte() {
        Map<String, Object> m = minimal();
        m.put("batch.mode", "event_time_window");
        assertEquals(
                MemorySize.ofMebiBytes(64),
                JobConfig.of(m).get(JobOptions.BATCH_WINDOW_MAX_BUFFERED_BYTES));
        m.put("batch.window-max-buffered-bytes", "0 b");
        assertEquals(
                "invalid value for batch.window-max-buffered-bytes: expected >= 1 byte", error(m));
        m.put("batch.window-max-buffered-bytes", "16 kb");
        assertEquals(
                MemorySize.parse("16 kb"),
                JobConfig.of(m).get(JobOptions.BATCH_WINDOW_MAX_BUFFERED_BYTES));
    }

    @Test
    void shardSettingsAreChecked() {
        Map<String, Object> m = minimal();
        m.put("shards.path", "/data/shards");
        assertEquals(
                "invalid value '/data/shards' for shards.path: expected a URI with a scheme:"
                        + " file:///dir, s3://bucket/prefix, ...",
                error(m));
        m.put("shards.path", "s3://bucket/shards");
        // the open S3 shards' unfinished parts live in the checkpoint: it must be durable
        JobConfig noDir = JobConfig.of(m);
        org.apache.flink.configuration.Configuration cluster =
                new org.apache.flink.configuration.Configuration();
        JobConfigException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        JobConfigException.class,
                        () -> noDir.shards().checkDurableCheckpoints(cluster));
        assertTrue(
                e.getMessage().contains("set flink.execution.checkpointing.dir"), e.getMessage());
        cluster.setString("execution.checkpointing.dir", "s3://b/checkpoints");
        noDir.shards().checkDurableCheckpoints(cluster);
        cluster.setString("execution.checkpointing.storage", "jobmanager");
        org.junit.jupiter.api.Assertions.assertThrows(
                JobConfigException.class, () -> noDir.shards().checkDurableCheckpoints(cluster));
        m.put("flink.execution.checkpointing.dir", "file:///data/checkpoints");
        JobConfig.of(m)
                .shards()
                .checkDurableCheckpoints(new org.apache.flink.configuration.Configuration());
        // the statistics sketches of open shards live in the checkpoint too
        Map<String, Object> local = minimal();
        local.put("shards.path", "file:///data/shards");
        local.put("shards.statistics", true);
        JobConfig statistics = JobConfig.of(local);
        JobConfigException s =
                org.junit.jupiter.api.Assertions.assertThrows(
                        JobConfigException.class,
                        () ->
                                statistics
                                        .shards()
                                        .checkDurableCheckpoints(
                                                new org.apache.flink.configuration
                                                        .Configuration()));
        assertTrue(s.getMessage().startsWith("shards.statistics: true keeps"), s.getMessage());
        local.put("flink.execution.checkpointing.dir", "file:///data/checkpoints");
        JobConfig.of(local)
                .shards()
                .checkDurableCheckpoints(new org.apache.flink.configuration.Configuration());
        m.put("shards.compression-level", 10);
        assertEquals("invalid value '10' for shards.compression-level: expected 0-9", error(m));
        m.put("shards.compression-level", 1);
        m.put("shards.part-size", "1 mb");
        assertTrue(
                error(m).startsWith("invalid value '1 mb' for shards.part-size: expected 5 mb"),
                error(m));
        m.put("shards.part-size", "8 mb");
        m.put("shards.prefix", ".hidden");
        assertTrue(error(m).startsWith("invalid value '.hidden' for shards.prefix"));
        m.put("shards.prefix", "part");
        m.put("shards.bucket-pattern", "'unclosed");
        assertTrue(error(m).startsWith("invalid shards.bucket-pattern / shards.zone"));
        m.put("shards.bucket-pattern", "yyyy/MM/dd");
        m.put("shards.zone", "Mars/Olympus");
        assertTrue(error(m).startsWith("invalid shards.bucket-pattern / shards.zone"));
        m.put("shards.zone", "Europe/Paris");
        m.put("shards.compression", "zlib");
        JobConfig c = JobConfig.of(m);
        assertEquals(Compression.ZLIB, c.get(JobOptions.SHARDS_COMPRESSION));
        assertEquals(SkewAction.DEAD_LETTER, c.get(JobOptions.SHARDS_SKEW_ACTION));
        assertEquals(1, c.get(JobOptions.SHARDS_COMPRESSION_LEVEL));
    }

    @Test
    void aShardsSchemeWithoutAResumableRecoverableWriterFailsNamingIt() {
        Map<String, Object> m = minimal();
        m.put("shards.path", "nosuchfs://bucket/shards");
        JobConfig c = JobConfig.of(m);
        JobConfigException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        JobConfigException.class, () -> c.shards().storeFactory());
        assertTrue(e.getMessage().contains("scheme 'nosuchfs'"), e.getMessage());
        m.put("shards.path", dir.resolve("shards").toUri().toString());
        assertTrue(JobConfig.of(m).shards().storeFactory() != null);
    }

    @Test
    void s3ShardsTakeTheClustersS3EndpointWhenTheJobSetsNone() {
        Map<String, Object> m = minimal();
        m.put("shards.path", "s3://bucket/shards");
        org.apache.flink.configuration.Configuration cluster =
                new org.apache.flink.configuration.Configuration();
        cluster.setString("s3.endpoint", "http://127.0.0.1:9000");
        cluster.setString("s3.path.style.access", "true");
        var fromCluster =
                (io.tfstream.operators.shards.store.S3ShardStoreFactory)
                        JobConfig.of(m).shards().storeFactory(cluster);
        assertEquals("http://127.0.0.1:9000", fromCluster.endpoint());
        assertTrue(fromCluster.pathStyle());
        m.put("s3.endpoint", "http://127.0.0.1:9100");
        var own =
                (io.tfstream.operators.shards.store.S3ShardStoreFactory)
                        JobConfig.of(m).shards().storeFactory(cluster);
        assertEquals("http://127.0.0.1:9100", own.endpoint());
    }

    @Test
    void theCheckpointDirectoryHasOneNameAndCheckpointDirIsReadAsItWithAWarning() {
        Map<String, Object> m = minimal();
        m.put("flink.execution.checkpointing.dir", "s3://b/cp");
        JobConfig c = JobConfig.of(m);
        assertEquals(java.util.Optional.of("s3://b/cp"), c.checkpointDir());
        assertEquals(List.of(), c.warnings());

        m = minimal();
        m.put("checkpoint.dir", "file:///data/cp");
        c = JobConfig.of(m);
        assertEquals(java.util.Optional.of("file:///data/cp"), c.checkpointDir());
        assertFalse(c.contains(JobOptions.CHECKPOINT_DIR));
        assertEquals(
                List.of(
                        "checkpoint.dir is deprecated, use flink.execution.checkpointing.dir (the"
                                + " same setting)"),
                c.warnings());
        var flink = JobLauncher.flinkConfiguration(c);
        assertEquals("file:///data/cp", flink.getString("execution.checkpointing.dir", null));
        assertEquals("filesystem", flink.getString("execution.checkpointing.storage", null));
        assertEquals(
                "file:///data/cp", flink.getString("execution.checkpointing.savepoint-dir", null));

        m.put("flink.execution.checkpointing.dir", "s3://b/other");
        assertTrue(error(m).contains("name two checkpoint directories"), error(m));
        m.put("flink.execution.checkpointing.dir", "file:///data/cp");
        assertEquals(1, JobConfig.of(m).warnings().size());
    }

    @Test
    void checkpointIntervalIsUnsetUnlessGivenAndThenPositive() {
        Map<String, Object> m = minimal();
        assertFalse(JobConfig.of(m).contains(JobOptions.CHECKPOINT_INTERVAL));
        m.put("checkpoint.interval", "0 s");
        assertTrue(error(m).startsWith("invalid value"), error(m));
    }

    @Test
    void deadLetterIsTheOneSpellingAndDlqIsReadWithAWarning() {
        Map<String, Object> m = minimal();
        JobConfig c = JobConfig.of(m);
        assertEquals(OnCorruption.DEAD_LETTER, c.get(JobOptions.SOURCE_FILES_ON_CORRUPTION));
        assertEquals(LateRecords.DEAD_LETTER, c.get(JobOptions.BATCH_LATE_RECORDS));
        assertEquals(List.of(), c.warnings());
        m.put("source.files.on-corruption", "dead_letter");
        m.put("batch.late-records", "dead-letter");
        assertEquals(List.of(), JobConfig.of(m).warnings());

        m.put("source.files.on-corruption", "dlq");
        m.put("batch.late-records", "DLQ");
        c = JobConfig.of(m);
        assertEquals(OnCorruption.DEAD_LETTER, c.get(JobOptions.SOURCE_FILES_ON_CORRUPTION));
        assertEquals(LateRecords.DEAD_LETTER, c.get(JobOptions.BATCH_LATE_RECORDS));
        assertEquals(
                List.of(
                        "batch.late-records: 'DLQ' is deprecated, use 'dead_letter'",
                        "source.files.on-corruption: 'dlq' is deprecated, use 'dead_letter'"),
                c.warnings().stream().sorted().toList());

        m.put("source.files.on-corruption", "fail");
        m.put("batch.late-records", "drop");
        c = JobConfig.of(m);
        assertEquals(OnCorruption.FAIL, c.get(JobOptions.SOURCE_FILES_ON_CORRUPTION));
        assertEquals(LateRecords.DROP, c.get(JobOptions.BATCH_LATE_RECORDS));
        assertEquals(List.of(), c.warnings());

        // Options that never took 'dlq' do not take it now.
        m = minimal();
        m.put("shards.late-records", "dlq");
        assertEquals(
                "invalid value 'dlq' for shards.late-records: expected one of write, dead_letter",
                error(m));
        m = minimal();
        m.put("source.files.on-corruption", "skip");
        assertEquals(
                "invalid value 'skip' for source.files.on-corruption: expected one of dead_letter,"
                        + " fail",
                error(m));
    }

    @Test
    void optionEnumsAreTheOperatorsOwn() {
        Map<String, Object> m = minimal();
        m.put("event-time.source", "feature");
        m.put("event-time.feature", "ts");
        m.put("event-time.unit", "seconds");
        m.put("shards.path", "file:///data/shards");
        m.put("shards.skew-action", "processing_time");
        m.put("shards.compression", "gzip");
        JobConfig c = JobConfig.of(m);
        assertEquals(EventTimeSettings.Unit.SECONDS, c.get(JobOptions.EVENT_TIME_UNIT));
        assertEquals(EventTimeSettings.Source.FEATURE, c.get(JobOptions.EVENT_TIME_SOURCE));
        assertEquals(SkewAction.PROCESSING_TIME, c.get(JobOptions.SHARDS_SKEW_ACTION));
        var shards = BuiltSettings.of(c.shards().shards("f"));
        assertEquals(Compression.GZIP, shards.compression());
        assertEquals(Duration.ofDays(7), shards.maxBucketSkew(), "re-bucketed by processing time");
        assertEquals(
                "one of none, gzip, zlib", JobOptionsHelp.typeName(JobOptions.SHARDS_COMPRESSION));
        assertEquals("dead_letter", JobOptionsHelp.defaultText(JobOptions.BATCH_LATE_RECORDS));
    }

    /**
     * Regression: a file record's event time is its file's modification time, so with the Kafka
     * default of 7 days every record of an older file was dead-lettered and backfills lost it.
     */
    @Test
    void theBucketSkewIsCheckedForFilesOnlyWhenSet() {
        Map<String, Object> kafka = minimal();
        kafka.put("shards.path", "file:///data/shards");
        // processing_time: the sink's settings carry the guard's skew too
        kafka.put("shards.skew-action", "processing_time");
        assertEquals(Duration.ofDays(7), skew(kafka));
        kafka.put("shards.max-bucket-skew", "1 d");
        assertEquals(Duration.ofDays(1), skew(kafka));

        Map<String, Object> files = minimal();
        files.remove("source.topics");
        files.put("source.type", "files");
        files.put("source.files.paths", "file:///data/in");
        files.put("shards.path", "file:///data/shards");
        files.put("shards.skew-action", "processing_time");
        assertEquals(null, skew(files));
        files.put("shards.max-bucket-skew", "30 d");
        assertEquals(Duration.ofDays(30), skew(files));
        files.put("shards.max-bucket-skew", "0 s");
        assertEquals(
                "invalid value 'PT0S' for shards.max-bucket-skew: expected a positive duration",
                error(files));
        files.put("shards.max-bucket-skew", "soon");
        assertEquals(
                "invalid value 'soon' for shards.max-bucket-skew: expected a duration (e.g. 200"
                        + " ms, 10 s, 5 min)",
                error(files));
    }

    @Test
    void missingAndMalformedFilesAreNamed() throws Exception {
        assertEquals(
                "no such file: " + dir.resolve("none.yaml"),
                assertThrows(
                                JobConfigException.class,
                                () -> JobConfigFiles.read(dir.resolve("none.yaml"), List.of()))
                        .getMessage());
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "a: [1, 2\n");
        assertTrue(
                assertThrows(JobConfigException.class, () -> JobConfigFiles.read(bad, List.of()))
                        .getMessage()
                        .startsWith(bad + " is not valid YAML"));
    }

    @Test
    void helpListsEveryOptionWithDefaultAndDescription() {
        String help = JobOptionsHelp.helpText();
        for (ConfigOption<?> o : JobOptions.ALL) {
            assertTrue(help.contains("  " + o.key() + "  ("), o.key());
            assertFalse(JobOptionsHelp.text(o).isEmpty(), o.key() + " has a description");
        }
        assertTrue(help.contains("batch.max-records  (an integer; default: 1024)"), help);
        assertTrue(
                help.contains(
                        "batch.max-delay  (a duration (e.g. 200 ms, 10 s, 5 min); default: 200 ms)"),
                help);
        assertTrue(
                help.contains("batch.max-bytes  (a size (e.g. 512 kb, 8 mb); default: 8 mb)"),
                help);
    }

    @Test
    void schemaUpdatesAreTypedAndCombineWithValidation() {
        Map<String, Object> m = minimal();
        m.put("schema.update", "poll");
        m.put("schema.compatibility", "backward");
        JobConfig c = JobConfig.of(m);
        assertEquals(SchemaOptions.Update.POLL, c.get(JobOptions.SCHEMA_UPDATE));
        assertEquals(Duration.ofSeconds(30), c.get(JobOptions.SCHEMA_POLL_INTERVAL));
        assertEquals(SchemaCompatibility.BACKWARD, c.get(JobOptions.SCHEMA_COMPATIBILITY));
        assertTrue(c.parse().schemaUpdates());

        m.put("schema.poll-interval", "0 s");
        assertTrue(error(m).contains("schema.poll-interval"), error(m));
        m.remove("schema.poll-interval");
        m.put("validation.enabled", "true");
        m.put("validation.alerts-topic", "alerts");
        // Validation follows the schema in force (windows per fingerprint).
        assertTrue(JobConfig.of(m).parse().schemaUpdates());
        m.put("schema.update", "sometimes");
        assertTrue(error(m).contains("schema.update"), error(m));
    }

    @Test
    void jsonInputWithSchemaUpdatesNeedsCountBatches() {
        Map<String, Object> m = minimal();
        m.put("schema.update", "poll");
        m.put("source.format", "json");
        assertTrue(JobConfig.of(m).parse().schemaUpdates());
        m.put("batch.mode", "event_time_window");
        assertTrue(error(m).contains("needs count batches (batch.mode count)"), error(m));
        m.put("source.format", "example");
        JobConfig.of(m);
    }
}
