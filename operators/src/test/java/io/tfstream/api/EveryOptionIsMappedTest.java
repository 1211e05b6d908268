package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.EventTimeOptions;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.api.options.OptionList;
import io.tfstream.api.options.ParseOptions;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.api.options.SourceFormatOptions;
import io.tfstream.api.options.StatisticsOptions;
import io.tfstream.api.options.ValidationOptions;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/**
 * Every option of every stage ({@code *Options.OPTIONS}) is mapped to a setting by one reader of a
 * configuration (a builder's {@code fromConfig}, or an options class's own mapping): set to a value
 * other than its default, it changes what that reader builds. The few that no reader takes are
 * listed below with where they go instead, and the test holds that list to the truth too. The job
 * reads each stage through the same readers ({@code io.tfstream.job.StageView}), so a key maps to a
 * field in one place.
 */
class EveryOptionIsMappedTest {
    private static final byte[] SCHEMA =
            ("feature { name: \"age\" type: INT }\n"
                            + "feature { name: \"ts\" type: INT }\n"
                            + "feature { name: \"ts2\" type: INT }\n"
                            + "feature { name: \"user\" type: BYTES }\n"
                            + "default_environment: \"TRAINING\"\n"
                            + "default_environment: \"SERVING\"\n")
                    .getBytes(StandardCharsets.UTF_8);

    private static final String AVRO_SCHEMA =
            "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"age\",\"type\":\"long\"},"
                    + "{\"name\":\"ts\",\"type\":\"long\"},{\"name\":\"ts2\",\"type\":\"long\"},"
                    + "{\"name\":\"user\",\"type\":\"bytes\"}]}";

    /** The stages' option lists. */
    private static final List<OptionList> STAGES =
            List.of(
                    FileSourceOptions.OPTIONS,
                    KafkaSourceOptions.OPTIONS,
                    SourceFormatOptions.OPTIONS,
                    SchemaOptions.OPTIONS,
                    ParseOptions.OPTIONS,
                    EventTimeOptions.OPTIONS,
                    BatchOptions.OPTIONS,
                    DeadLetterOptions.OPTIONS,
                    KafkaSinkOptions.OPTIONS,
                    PayloadOptions.OPTIONS,
                    ShardOptions.OPTIONS,
                    ValidationOptions.OPTIONS,
                    StatisticsOptions.OPTIONS);

    /** The options no reader takes, and where each goes instead. */
    private static final Map<ConfigOption<?>, String> ELSEWHERE = new IdentityHashMap<>();

    static {
        ELSEWHERE.put(FileSourceOptions.PATHS, "TfRecordFileSource.builder(paths)");
        ELSEWHERE.put(SourceFormatOptions.AVRO_SCHEMA_PATH, "a file: setAvroSchemaFile(path)");
        ELSEWHERE.put(
                SchemaOptions.UPDATE,
                "schema updates watch the schema file: TfstreamParseBuilder#setSchemaUpdates");
        ELSEWHERE.put(SchemaOptions.POLL_INTERVAL, "TfstreamParseBuilder#setSchemaUpdates");
        ELSEWHERE.put(SchemaOptions.COMPATIBILITY, "TfstreamParseBuilder#setSchemaUpdates");
        ELSEWHERE.put(KafkaSinkOptions.BOOTSTRAP_SERVERS, "KafkaSink.builder()'s own setting");
        ELSEWHERE.put(
                KafkaSinkOptions.TRANSACTION_TIMEOUT,
                "KafkaSink.builder()'s producer property transaction.timeout.ms");
        ELSEWHERE.put(
                KafkaSinkOptions.ADOPT_TRANSACTIONS,
                "OwnTransactionsKafkaSink.of(sink, prefix) around the KafkaSink (blue/green)");
        ELSEWHERE.put(
                PayloadOptions.MAX_MESSAGE_BYTES,
                "TensorBatchRecords.producerProperties and maxPayloadBytes (the parse's)");
        ELSEWHERE.put(ShardOptions.PATH, "TfRecordShards.builder(path)");
        ELSEWHERE.put(ShardOptions.PART_SIZE, "the S3 store's (S3ShardStoreFactory)");
        ELSEWHERE.put(ShardOptions.S3_PROBE, "tfstream run's start-up check of the S3 store");
        ELSEWHERE.put(ShardOptions.SCHEMA_COPIES, "TfstreamParseBuilder#setSchemaCopies(path)");
        ELSEWHERE.put(ValidationOptions.ENABLED, "whether the job validates at all");
        ELSEWHERE.put(ValidationOptions.ALERTS_TOPIC, "ValidationRecords.serializer(topic)");
        ELSEWHERE.put(
                StatisticsOptions.ENABLED,
                "whether the job computes window statistics:"
                        + " TfstreamValidationBuilder#setStatistics");
        ELSEWHERE.put(StatisticsOptions.TOPIC, "ValidationRecords.serializer(topic)");
    }

    /** Values for options whose type gives no other value to try. */
    private static final Map<ConfigOption<?>, String> VALUES = new IdentityHashMap<>();

    /** Settings an option needs to matter, in the baseline and the changed configuration. */
    private static final Map<ConfigOption<?>, Map<String, String>> CONTEXT =
            new IdentityHashMap<>();

    static {
        VALUES.put(KafkaSourceOptions.BOOTSTRAP_SERVERS, "other:9092");
        VALUES.put(KafkaSourceOptions.TOPICS, "t2");
        VALUES.put(KafkaSourceOptions.TOPIC_PATTERN, "t.*");
        VALUES.put(KafkaSourceOptions.GROUP_ID, "g2");
        VALUES.put(KafkaSourceOptions.STARTING_OFFSETS, "earliest");
        VALUES.put(DeadLetterOptions.TOPIC, "dlq2");
        VALUES.put(KafkaSinkOptions.RECORDS_TOPIC, "records2");
        VALUES.put(PayloadOptions.TOPIC, "batches2");
        VALUES.put(ShardOptions.BUCKET_PATTERN, "yyyy/MM/dd");
        VALUES.put(ShardOptions.ZONE, "Europe/Paris");
        VALUES.put(ShardOptions.PREFIX, "shard");
        VALUES.put(ShardOptions.SPLITS, "train:2,eval:1");
        VALUES.put(ShardOptions.SPLIT_FEATURE, "user");
        VALUES.put(EventTimeOptions.FEATURE, "ts2");
        VALUES.put(BatchOptions.KEY, "kafka_key");
        VALUES.put(ValidationOptions.ENVIRONMENT, "SERVING");
        VALUES.put(ValidationOptions.ACTIONS, "ERROR=divert");
        VALUES.put(ValidationOptions.SEVERITY_OVERRIDES, "SCHEMA_NEW_COLUMN=WARNING");
        VALUES.put(ValidationOptions.ALERTS_TOPIC, "alerts");
        VALUES.put(ValidationOptions.ANOMALIES_TOPIC, "anomalies");
        VALUES.put(StatisticsOptions.WEIGHT_FEATURE, "age");
        VALUES.put(StatisticsOptions.TOPIC, "statistics");
        VALUES.put(FileSourceOptions.PATHS, "file:///tmp/other");
        VALUES.put(SourceFormatOptions.AVRO_SCHEMA_PATH, "/tmp/r.avsc");
        VALUES.put(SourceFormatOptions.FORMAT, "avro");
        VALUES.put(ShardOptions.PATH, "file:///tmp/other");

        CONTEXT.put(ShardOptions.MANIFESTS, Map.of("success-markers", "false"));
        CONTEXT.put(ShardOptions.SKEW_ACTION, Map.of("max-bucket-skew", "1 d"));
        CONTEXT.put(ShardOptions.STATISTICS_REPORT, Map.of("statistics", "true"));
        CONTEXT.put(ShardOptions.SPLIT_FEATURE, Map.of("splits", "train:2,eval:1"));
        Map<String, String> featureTime = Map.of("source", "feature", "feature", "ts");
        CONTEXT.put(EventTimeOptions.FEATURE, featureTime);
        CONTEXT.put(EventTimeOptions.UNIT, featureTime);
        CONTEXT.put(EventTimeOptions.SOURCE, Map.of("feature", "ts"));
        CONTEXT.put(EventTimeOptions.IDLENESS, featureTime);
        Map<String, String> windows = Map.of("mode", "event_time_window");
        for (ConfigOption<?> o :
                List.of(
                        BatchOptions.WINDOW,
                        BatchOptions.ALLOWED_LATENESS,
                        BatchOptions.LATE_RECORDS,
                        BatchOptions.WINDOW_MAX_BUFFERED_BYTES,
                        BatchOptions.KEY)) {
            CONTEXT.put(o, windows);
        }
        CONTEXT.put(FileSourceOptions.DISCOVERY_INTERVAL, Map.of("mode", "continuous"));
        CONTEXT.put(SourceFormatOptions.AVRO_SCHEMA_ID, Map.of("format", "avro"));
        CONTEXT.put(SourceFormatOptions.JSON_BYTES, Map.of("format", "json"));
        CONTEXT.put(SourceFormatOptions.CONVERT_FLATTEN, Map.of("format", "json"));
    }

    /** A reader of a configuration and the option lists whose keys it reads from one map. */
    private record Reader(String name, List<OptionList> lists, Function<Configuration, ?> read) {}

    private static final List<Reader> READERS =
            List.of(
                    new Reader(
                            "TfRecordShardsBuilder#fromConfig",
                            List.of(ShardOptions.OPTIONS, SchemaOptions.OPTIONS),
                            c ->
                                    TfRecordShards.builder("file:///tmp/shards")
                                            .fromConfig(c)
                                            .build()),
                    new Reader(
                            "TfstreamParseBuilder#fromConfig",
                            List.of(
                                    ParseOptions.OPTIONS,
                                    SchemaOptions.OPTIONS,
                                    BatchOptions.OPTIONS,
                                    EventTimeOptions.OPTIONS),
                            c ->
                                    TfstreamParse.builder()
                                            .setSchema(SCHEMA, "schema.pbtxt")
                                            .fromConfig(c)
                                            .build()),
                    new Reader(
                            "TfstreamValidationBuilder#fromConfig",
                            List.of(
                                    ValidationOptions.OPTIONS,
                                    SchemaOptions.OPTIONS,
                                    ParseOptions.OPTIONS,
                                    EventTimeOptions.OPTIONS),
                            c ->
                                    TfstreamValidation.builder()
                                            .setSchema(SCHEMA, "schema.pbtxt")
                                            .fromConfig(c)
                                            .build()),
                    new Reader(
                            "TfstreamConvertBuilder#fromConfig",
                            List.of(SourceFormatOptions.OPTIONS),
                            c -> {
                                TfstreamConvertBuilder b =
                                        TfstreamConvert.builder()
                                                .setSchema(SCHEMA, "schema.pbtxt")
                                                .fromConfig(with(c, "format", "json"));
                                if ("avro".equals(c.toMap().get("format"))) {
                                    b.setAvroSchema(AVRO_SCHEMA);
                                }
                                return b.build();
                            }),
                    new Reader(
                            "TfstreamKafkaSourceBuilder#fromConfig",
                            List.of(KafkaSourceOptions.OPTIONS),
                            c -> {
                                TfstreamKafkaSourceBuilder b = TfstreamKafkaSource.builder();
                                if (!c.containsKey("bootstrap-servers")) {
                                    b.setBootstrapServers("b:9092");
                                }
                                if (!c.containsKey("topic-pattern")) {
                                    b.setTopics(List.of("t"));
                                }
                                return b.fromConfig(c).build();
                            }),
                    new Reader(
                            "TfRecordFileSourceBuilder#fromConfig",
                            List.of(FileSourceOptions.OPTIONS),
                            c ->
                                    TfRecordFileSource.builder(List.of("file:///tmp/in"))
                                            .fromConfig(c)
                                            .build()),
                    new Reader(
                            "DeadLetterRecords#fromConfig",
                            List.of(DeadLetterOptions.OPTIONS),
                            c -> DeadLetterRecords.fromConfig(with(c, "topic", "dlq"), "fp")),
                    new Reader(
                            "DeadLetterOptions#guard",
                            List.of(DeadLetterOptions.OPTIONS),
                            c -> DeadLetterOptions.guard(c).orElse(null)),
                    new Reader(
                            "TensorBatchRecords#fromConfig",
                            List.of(PayloadOptions.OPTIONS),
                            c -> TensorBatchRecords.fromConfig(with(c, "topic", "batches"))),
                    new Reader(
                            "AcceptedRecords#fromConfig",
                            List.of(KafkaSinkOptions.OPTIONS),
                            c -> AcceptedRecords.fromConfig(with(c, "records.topic", "records"))),
                    new Reader(
                            "StatisticsOptions#settings",
                            List.of(StatisticsOptions.OPTIONS),
                            StatisticsOptions::settings));

    @Test
    void everyOptionChangesWhatItsReaderBuildsOrIsListedWithWhereItGoes() throws Exception {
        List<String> unmapped = new ArrayList<>();
        List<String> listedButMapped = new ArrayList<>();
        int options = 0;
        for (OptionList stage : STAGES) {
            for (ConfigOption<?> o : stage.options()) {
                options++;
                Map<String, String> context = CONTEXT.getOrDefault(o, Map.of());
                Map<String, String> changed = new LinkedHashMap<>(context);
                changed.put(o.key(), changedValue(stage, o));
                List<String> changes = new ArrayList<>();
                for (Reader r : READERS) {
                    if (!r.lists().contains(stage)) {
                        continue;
                    }
                    String before = fingerprint(r.read().apply(Configuration.fromMap(context)));
                    assertEquals(
                            before,
                            fingerprint(r.read().apply(Configuration.fromMap(context))),
                            r.name() + " builds the same twice from " + context);
                    String after = fingerprint(r.read().apply(Configuration.fromMap(changed)));
                    if (!before.equals(after)) {
                        changes.add(r.name());
                    }
                }
                if (changes.isEmpty() && !ELSEWHERE.containsKey(o)) {
                    unmapped.add(o.key() + " = " + changed.get(o.key()));
                }
                if (!changes.isEmpty() && ELSEWHERE.containsKey(o)) {
                    listedButMapped.add(o.key() + " (changes " + changes + ")");
                }
            }
        }
        assertTrue(unmapped.isEmpty(), "options no reader maps: " + unmapped);
        assertTrue(
                listedButMapped.isEmpty(), "listed as elsewhere, but mapped: " + listedButMapped);
        assertTrue(options > 80, options + " options walked");
    }

    @Test
    void everyOptionListedAsElsewhereIsAStageOption() {
        Set<ConfigOption<?>> all = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        STAGES.forEach(s -> all.addAll(s.options()));
        for (ConfigOption<?> o : ELSEWHERE.keySet()) {
            assertTrue(all.contains(o), o.key() + " is in no stage");
        }
    }

    /** A reader takes its options from one map: no two of them may share a key. */
    @Test
    void noReaderReadsTwoOptionsOfOneKey() {
        for (Reader r : READERS) {
            Set<String> keys = new HashSet<>();
            for (OptionList list : r.lists()) {
                for (ConfigOption<?> o : list.options()) {
                    assertTrue(keys.add(o.key()), r.name() + " reads '" + o.key() + "' twice");
                }
            }
        }
    }

    private static Configuration with(Configuration c, String key, String value) {
        Configuration copy = new Configuration(c);
        if (!copy.containsKey(key)) {
            copy.setString(key, value);
        }
        return copy;
    }

    /** A value of {@code o} other than its default, as text. */
    private static String changedValue(OptionList stage, ConfigOption<?> o) {
        if (VALUES.containsKey(o)) {
            return VALUES.get(o);
        }
        Class<?> type = stage.type(o);
        Object d = o.hasDefaultValue() ? o.defaultValue() : null;
        if (type == Boolean.class) {
            return Boolean.toString(!Boolean.TRUE.equals(d));
        } else if (type == Integer.class || type == Long.class) {
            long n = d == null ? 2 : ((Number) d).longValue();
            return Long.toString(n <= 0 ? 3 : n + 1);
        } else if (type == Double.class) {
            double n = d == null ? 0.5 : ((Number) d).doubleValue();
            return Double.toString(n >= 1 ? 0.5 : n / 2);
        } else if (type == Duration.class) {
            return d == null ? "1 d" : ((Duration) d).plusSeconds(7).toMillis() + " ms";
        } else if (type == MemorySize.class) {
            return d == null ? "1 mb" : ((MemorySize) d).getBytes() * 2 + " b";
        } else if (type == String.class || type == List.class) {
            return "other";
        } else if (type.isEnum()) {
            for (Object c : stage.accepted(o)) {
                if (!c.equals(d)) {
                    return ((Enum<?>) c).name();
                }
            }
        }
        throw new AssertionError("no value to try for " + o.key() + ": add it to VALUES");
    }

    /** What a reader built, as text that is equal exactly when the settings are. */
    private static String fingerprint(Object o) throws Exception {
        if (o == null) {
            return "null";
        }
        if (o instanceof Serializable) {
            return Base64.getEncoder().encodeToString(InstantiationUtil.serializeObject(o));
        }
        StringBuilder b = new StringBuilder(o.getClass().getName()).append('{');
        for (Class<?> c = o.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                b.append(f.getName()).append('=').append(fingerprint(f.get(o))).append(';');
            }
        }
        return b.append('}').toString();
    }
}
