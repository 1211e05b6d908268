package io.tfstream.job;

import io.tfstream.api.model.StatisticsSettings;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.api.options.StatisticsOptions;
import io.tfstream.api.options.ValidationOptions;
import io.tfstream.parse.ParseLimits;
import io.tfstream.text.Quoted;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;

/**
 * The job's validated settings: every {@link JobOptions} key typed, plus the Kafka client and Flink
 * pass-through properties. Built once by {@link #of}, which rejects unknown keys, values of the
 * wrong type and inconsistent combinations with a message that names the key and what is accepted.
 * The combinations are checked by one configuration per stage ({@link SourceConfig}, {@link
 * ParseConfig}, {@link PayloadConfig}, {@link ShardConfig}, {@link DeadLetterConfig}, {@link
 * ValidationConfig}), each also turning its options into the operators' settings.
 */
public final class JobConfig {
    private final Configuration options;
    private final Properties sourceProperties;
    private final Properties outputProperties;
    private final Map<String, String> flinkSettings;
    private final Map<String, String> given;
    private final List<String> warnings;
    // The stages, set once by of(): each checks its options as it is built, reading this config.
    private DeadLetterConfig deadLetters;
    private SourceConfig source;
    private ConvertConfig convert;
    private ParseConfig parse;
    private PayloadConfig payloads;
    private ShardConfig shards;
    private ValidationConfig validation;
    private KafkaSinks sinks;

    private JobConfig(
            Configuration options,
            Properties sourceProperties,
            Properties outputProperties,
            Map<String, String> flinkSettings,
            Map<String, String> given,
            List<String> warnings) {
        this.options = options;
        this.sourceProperties = sourceProperties;
        this.outputProperties = outputProperties;
        this.flinkSettings = flinkSettings;
        this.given = given;
        this.warnings = warnings;
    }

    /** Validates {@code flat} (dotted keys; list values as lists or ';'-separated strings). */
    public static JobConfig of(Map<String, ?> flat) {
        Map<String, ConfigOption<?>> known = new LinkedHashMap<>();
        for (ConfigOption<?> o : JobOptions.ALL) {
            known.put(o.key(), o);
        }
        Configuration conf = new Configuration();
        Properties source = new Properties();
        Properties output = new Properties();
        Map<String, String> flink = new TreeMap<>();
        Map<String, String> given = new TreeMap<>();
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, ?> e : flat.entrySet()) {
            String key = e.getKey();
            String value = text(e.getValue());
            given.put(key, value);
            if (key.startsWith(JobOptions.SOURCE_PROPERTIES_PREFIX)) {
                source.setProperty(
                        key.substring(JobOptions.SOURCE_PROPERTIES_PREFIX.length()), value);
            } else if (key.startsWith(JobOptions.OUTPUT_PROPERTIES_PREFIX)) {
                output.setProperty(
                        key.substring(JobOptions.OUTPUT_PROPERTIES_PREFIX.length()), value);
            } else if (key.startsWith(JobOptions.FLINK_PREFIX)) {
                String flinkKey = key.substring(JobOptions.FLINK_PREFIX.length());
                if (Secrets.isSecret(flinkKey) || GlobalConfiguration.isSensitive(flinkKey)) {
                    // The job's Flink configuration travels in the job graph and the web UI
                    // shows it, whichever way (YAML, --set) the setting came.
                    throw new JobConfigException(
                            Quoted.cut(key)
                                    + ": secrets do not go into the job's Flink configuration,"
                                    + " which the job graph carries and the web UI shows; give S3"
                                    + " keys as s3.credentials-file, other secrets in the"
                                    + " cluster's own configuration");
                }
                flink.put(flinkKey, value);
            } else {
                ConfigOption<?> o = known.get(key);
                if (o == null) {
                    throw new JobConfigException(unknown(key, known.keySet()));
                }
                conf.setString(key, undeprecated(o, normalize(o, value), warnings));
                check(conf, o, value);
                try {
                    JobOptions.stageOf(o).check(conf, o);
                } catch (IllegalArgumentException refused) {
                    throw new JobConfigException(refused.getMessage());
                }
            }
        }
        CheckpointDir.undeprecate(conf, flink, warnings);
        JobConfig c =
                new JobConfig(
                        conf,
                        KafkaClientProperties.resolve(source, JobOptions.SOURCE_PROPERTIES_PREFIX),
                        KafkaClientProperties.resolve(output, JobOptions.OUTPUT_PROPERTIES_PREFIX),
                        flink,
                        given,
                        warnings);
        c.deadLetters = new DeadLetterConfig(c);
        c.source = new SourceConfig(c);
        c.convert = new ConvertConfig(c);
        c.parse = new ParseConfig(c);
        c.payloads = new PayloadConfig(c);
        c.sinks = new KafkaSinks(c);
        c.shards = new ShardConfig(c);
        c.validation = new ValidationConfig(c);
        return c;
    }

    private static String text(Object v) {
        if (v instanceof List<?> l) {
            return l.stream().map(String::valueOf).collect(Collectors.joining(";"));
        }
        return String.valueOf(v);
    }

    /** Enum values may be written in any case and with '-' for '_'. */
    private static String normalize(ConfigOption<?> o, String value) {
        return enumClass(o) != null ? value.trim().replace('-', '_') : value.trim();
    }

    /** A deprecated spelling ({@link JobOptions#DEPRECATED_VALUES}) read as the current one. */
    private static String undeprecated(ConfigOption<?> o, String value, List<String> warnings) {
        String current =
                JobOptions.DEPRECATED_VALUES
                        .getOrDefault(o, Map.of())
                        .get(value.toLowerCase(Locale.ROOT));
        if (current == null) {
            return value;
        }
        warnings.add(
                o.key()
                        + ": '"
                        + Secrets.shown(o.key(), value)
                        + "' is deprecated, use '"
                        + Secrets.shown(o.key(), current)
                        + "'");
        return current;
    }

    private static Class<?> enumClass(ConfigOption<?> o) {
        Class<?> c = JobOptionsHelp.valueClass(o);
        return c.isEnum() ? c : null;
    }

    private static void check(Configuration conf, ConfigOption<?> o, String value) {
        try {
            conf.get(o);
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid value '"
                            + Quoted.cut(Secrets.shown(o.key(), value))
                            + "' for "
                            + o.key()
                            + ": expected "
                            + JobOptionsHelp.typeName(o));
        }
    }

    private static String unknown(String key, java.util.Set<String> known) {
        String group = key.contains(".") ? key.substring(0, key.indexOf('.') + 1) : key;
        List<String> near =
                known.stream().filter(k -> k.startsWith(group)).collect(Collectors.toList());
        return "unknown option '"
                + Quoted.cut(key)
                + "'"
                + (near.isEmpty()
                        ? ""
                        : "; options in '" + Quoted.cut(group) + "': " + String.join(", ", near))
                + " (see tfstream run --help; Kafka client settings go under "
                + JobOptions.SOURCE_PROPERTIES_PREFIX
                + "* and "
                + JobOptions.OUTPUT_PROPERTIES_PREFIX
                + "*, Flink settings under "
                + JobOptions.FLINK_PREFIX
                + "*)";
    }

    /** The configuration as {@code stages} see it: their options by their relative keys. */
    StageView view(JobOptionStage... stages) {
        return new StageView(options, List.of(stages));
    }

    public <T> T get(ConfigOption<T> o) {
        return options.get(o);
    }

    /** {@code o}'s value when set, else null (also when it has a default). */
    public <T> T orNull(ConfigOption<T> o) {
        return options.getOptional(o).orElse(null);
    }

    public boolean contains(ConfigOption<?> o) {
        return options.contains(o);
    }

    /** Kafka consumer properties ({@code source.properties.*}, prefix removed). */
    public Properties sourceProperties() {
        Properties p = new Properties();
        p.putAll(sourceProperties);
        return p;
    }

    /** Kafka producer properties ({@code output.properties.*}, prefix removed). */
    public Properties outputProperties() {
        Properties p = new Properties();
        p.putAll(outputProperties);
        return p;
    }

    /** Flink settings ({@code flink.*}, prefix removed). */
    public Map<String, String> flinkSettings() {
        return Map.copyOf(flinkSettings);
    }

    /**
     * The job's checkpoint directory: {@code flink.execution.checkpointing.dir} (or the deprecated
     * {@code checkpoint.dir}); empty when the cluster's applies.
     */
    public java.util.Optional<String> checkpointDir() {
        return java.util.Optional.ofNullable(flinkSettings.get(JobOptions.FLINK_CHECKPOINT_DIR));
    }

    /** The parse limits the job's batch-and-parse applies ({@code parse.*}). */
    public ParseLimits parseLimits() {
        return parse.limits();
    }

    SourceConfig source() {
        return source;
    }

    ConvertConfig convert() {
        return convert;
    }

    ParseConfig parse() {
        return parse;
    }

    PayloadConfig payloads() {
        return payloads;
    }

    ShardConfig shards() {
        return shards;
    }

    DeadLetterConfig deadLetters() {
        return deadLetters;
    }

    ValidationConfig validation() {
        return validation;
    }

    KafkaSinks sinks() {
        return sinks;
    }

    /** What was accepted but should be changed, e.g. a deprecated spelling; one line each. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * The Kafka topics the job writes, each by the key that names it, in the order the start-up
     * checks report them: the dead letters, the records and the batches when set, the alerts when
     * validation is on or schema updates may raise them, the anomalies with validation, and the
     * window statistics when on.
     */
    public Map<String, String> outputTopics() {
        Map<String, String> topics = new LinkedHashMap<>();
        topic(topics, JobOptionStage.DEAD_LETTERS, DeadLetterOptions.TOPIC);
        topic(topics, JobOptionStage.KAFKA_SINKS, KafkaSinkOptions.RECORDS_TOPIC);
        topic(topics, JobOptionStage.PAYLOADS, PayloadOptions.TOPIC);
        if (validation.enabled() || validation.alerts()) {
            topic(topics, JobOptionStage.VALIDATION, ValidationOptions.ALERTS_TOPIC);
            if (validation.anomalies()) {
                topic(topics, JobOptionStage.VALIDATION, ValidationOptions.ANOMALIES_TOPIC);
            }
        }
        if (validation.statistics()) {
            topic(topics, JobOptionStage.STATISTICS, StatisticsOptions.TOPIC);
        }
        return topics;
    }

    private void topic(Map<String, String> topics, JobOptionStage stage, ConfigOption<String> o) {
        view(stage).getOptional(o).ifPresent(t -> topics.put(stage.prefix() + o.key(), t));
    }

    /** How the statistics are computed ({@code statistics.epsilon}, {@code weight-feature}). */
    StatisticsSettings statistics() {
        try {
            return StatisticsOptions.settings(view(JobOptionStage.STATISTICS));
        } catch (IllegalArgumentException e) {
            throw new JobConfigException(e.getMessage(), e);
        }
    }

    /** The job's schema file option: {@code schema.path} (a TFMD schema) or {@code spec.path}. */
    public ConfigOption<String> schemaFileOption() {
        return tfmdSchema() ? JobOptions.SCHEMA_PATH : JobOptions.SPEC_PATH;
    }

    /** Whether the job's schema is a TFMD schema ({@code schema.path}), not a feature spec. */
    public boolean tfmdSchema() {
        return options.contains(JobOptions.SCHEMA_PATH);
    }

    /** The Kafka source's topics, empty with a topic pattern (or a file source). */
    public List<String> sourceTopics() {
        return view(JobOptionStage.SOURCE).getOptional(KafkaSourceOptions.TOPICS).orElse(List.of());
    }

    /** The Kafka source's consumer group. */
    public String sourceGroupId() {
        return view(JobOptionStage.SOURCE).get(KafkaSourceOptions.GROUP_ID);
    }

    /** Whether the source is Kafka rather than files. */
    public boolean kafkaSource() {
        return !source.files();
    }

    /** The prefix of every Kafka sink's transactional ids ({@code <job.name>-}). */
    public String transactionalIdPrefix() {
        return get(JobOptions.JOB_NAME) + "-";
    }

    /** The output bootstrap servers: {@code output.bootstrap-servers} or the source's. */
    public String outputBootstrapServers() {
        return view(JobOptionStage.KAFKA_SINKS)
                .getOptional(KafkaSinkOptions.BOOTSTRAP_SERVERS)
                .orElseGet(
                        () ->
                                view(JobOptionStage.SOURCE)
                                        .get(KafkaSourceOptions.BOOTSTRAP_SERVERS));
    }

    /** The settings as given, one {@code key: value} per line, secrets masked. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : given.entrySet()) {
            b.append(e.getKey())
                    .append(": ")
                    .append(Secrets.shown(e.getKey(), e.getValue()))
                    .append('\n');
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return "JobConfig{" + Arrays.toString(describe().split("\n")) + "}";
    }

    /** All keys given, for tests. */
    List<String> keys() {
        return new ArrayList<>(given.keySet());
    }
}
