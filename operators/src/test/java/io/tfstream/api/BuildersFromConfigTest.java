package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.LostShardAction;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Builders filled from a configuration of a stage's options (keys relative to the stage, as a Flink
 * connector's): the same settings as the setters give, values checked by the option's declaration
 * and named by its key.
 */
class BuildersFromConfigTest {
    private static final byte[] SPEC =
            SpecJsonWriter.write(Seed001Corpus.spec()).getBytes(StandardCharsets.UTF_8);

    @Test
    void theParseTakesItsLimitsLegacyDefaultsAndTriggers() {
        ParseSettings s =
                TfstreamParse.builder()
                        .setSchema(SPEC, "spec.json")
                        .fromConfig(
                                Configuration.fromMap(
                                        Map.of(
                                                "max-record-bytes", "1 kb",
                                                "max-values-per-feature", "9",
                                                "legacy-defaults", "true",
                                                "max-records", "7",
                                                "max-delay", "3 s")))
                        .build()
                        .settings();
        ParseLimits d = ParseLimits.defaults();
        assertEquals(
                new ParseLimits(
                        1024,
                        9,
                        d.maxFeaturesPerExample(),
                        d.maxBytesPerValue(),
                        d.maxRaggedRows()),
                s.limits());
        assertTrue(s.legacyDefaults());
        assertEquals(7, s.triggers().maxRecords());
        assertEquals(8L << 20, s.triggers().maxBytes(), "unset: the default");
        assertEquals(Duration.ofSeconds(3), s.triggers().maxDelay());
    }

    @Test
    void theShardsTakeTheirOptionsAsTheSettersWouldSetThem() {
        ShardSettings fromConfig =
                TfRecordShards.builder("/tmp/shards")
                        .fromConfig(
                                Configuration.fromMap(
                                        Map.of(
                                                "compression", "gzip",
                                                "compression-level", "1",
                                                "target-size", "1 mb",
                                                "bucket-pattern", "yyyy-MM-dd",
                                                "zone", "Europe/Paris",
                                                "on-lost-shard", "drop")))
                        .build()
                        .settings();
        ShardSettings bySetters =
                TfRecordShards.builder("/tmp/shards")
                        .setCompression(Compression.GZIP)
                        .setCompressionLevel(1)
                        .setTargetSize(1 << 20)
                        .setBucketPattern("yyyy-MM-dd")
                        .setZone(ZoneId.of("Europe/Paris"))
                        .setOnLostShard(LostShardAction.DROP)
                        .build()
                        .settings();
        assertEquals(bySetters.compression(), fromConfig.compression());
        assertEquals(bySetters.compressionLevel(), fromConfig.compressionLevel());
        assertEquals(bySetters.targetSize(), fromConfig.targetSize());
        assertEquals(bySetters.bucketPattern(), fromConfig.bucketPattern());
        assertEquals(bySetters.zone(), fromConfig.zone());
        assertEquals(bySetters.onLostShard(), fromConfig.onLostShard());
        assertEquals(bySetters.maxAge(), fromConfig.maxAge(), "unset: the default");
    }

    @Test
    void aValueOutOfRangeIsNamedByItsKey() {
        IllegalArgumentException shards =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                TfRecordShards.builder("/tmp/shards")
                                        .fromConfig(
                                                Configuration.fromMap(
                                                        Map.of("compression-level", "12"))));
        assertEquals("invalid value '12' for compression-level: expected 0-9", shards.getMessage());
        IllegalArgumentException parse =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                TfstreamParse.builder()
                                        .fromConfig(
                                                Configuration.fromMap(Map.of("max-records", "0"))));
        assertEquals("invalid value '0' for max-records: expected >= 1", parse.getMessage());
    }

    @Test
    void validationSinksAndSourcesTakeTheirOptionsToo() {
        var validation =
                TfstreamValidation.builder()
                        .setSchema(
                                "feature { name: \"age\" type: INT }\n"
                                        .getBytes(StandardCharsets.UTF_8),
                                "schema.pbtxt")
                        .fromConfig(
                                Configuration.fromMap(
                                        Map.of(
                                                "window", "5 min",
                                                "splits", "3",
                                                "min-drift-examples", "7",
                                                "actions", "ERROR=divert")))
                        .build()
                        .settings();
        assertEquals(Duration.ofMinutes(5).toMillis(), validation.windowMillis());
        assertEquals(3, validation.splits());
        assertTrue(validation.actions().asMap().toString().contains("DIVERT"));

        // splits -1 is the job's "as the parallelism": the builder keeps its own
        assertEquals(
                1,
                TfstreamValidation.builder()
                        .setSchema(
                                "feature { name: \"age\" type: INT }\n"
                                        .getBytes(StandardCharsets.UTF_8),
                                "schema.pbtxt")
                        .fromConfig(Configuration.fromMap(Map.of("splits", "-1")))
                        .build()
                        .settings()
                        .splits());

        IllegalArgumentException dlq =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                DeadLetterRecords.fromConfig(
                                        Configuration.fromMap(
                                                Map.of("topic", "dlq", "max-error-bytes", "-1")),
                                        "fp"));
        assertEquals("invalid value '-1' for max-error-bytes: expected >= 0", dlq.getMessage());

        TfstreamKafkaSource.builder()
                .fromConfig(
                        Configuration.fromMap(Map.of("bootstrap-servers", "b:1", "topics", "a;b")))
                .build();
        TfRecordFileSource.builder(java.util.List.of("/tmp/none"))
                .fromConfig(
                        Configuration.fromMap(
                                Map.of("mode", "continuous", "discovery-interval", "1 s")))
                .build();
    }
}
