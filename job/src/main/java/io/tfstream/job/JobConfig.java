package io.tfstream.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * The job's validated settings: every {@link JobOptions} key typed, plus the Kafka client and Flink
 * pass-through properties. Built once by {@link #of}, which rejects unknown keys, values of the
 * wrong type and inconsistent combinations with a message that names the key and what is accepted.
 */
public final class JobConfig {
    private static final Pattern SECRET =
            Pattern.compile("(?i).*(password|secret|jaas|credential|token|sasl\\.login).*");

    private final Configuration options;
    private final Properties sourceProperties;
    private final Properties outputProperties;
    private final Map<String, String> flinkSettings;
    private final Map<String, String> given;

    private JobConfig(
            Configuration options,
            Properties sourceProperties,
            Properties outputProperties,
            Map<String, String> flinkSettings,
            Map<String, String> given) {
        this.options = options;
        this.sourceProperties = sourceProperties;
        this.outputProperties = outputProperties;
        this.flinkSettings = flinkSettings;
        this.given = given;
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
                flink.put(key.substring(JobOptions.FLINK_PREFIX.length()), value);
            } else {
                ConfigOption<?> o = known.get(key);
                if (o == null) {
                    throw new JobConfigException(unknown(key, known.keySet()));
                }
                conf.setString(key, normalize(o, value));
                check(conf, o, value);
            }
        }
        JobConfig c = new JobConfig(conf, source, output, flink, given);
        c.checkCombinations();
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
                            + value
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
                + key
                + "'"
                + (near.isEmpty() ? "" : "; options in '" + group + "': " + String.join(", ", near))
                + " (see tfstream run --help; Kafka client settings go under "
                + JobOptions.SOURCE_PROPERTIES_PREFIX
                + "* and "
                + JobOptions.OUTPUT_PROPERTIES_PREFIX
                + "*, Flink settings under "
                + JobOptions.FLINK_PREFIX
                + "*)";
    }

    private void checkCombinations() {
        require(JobOptions.DLQ_TOPIC);
        if (get(JobOptions.SOURCE_TYPE) == JobOptions.SourceType.FILES) {
            checkFiles();
        } else {
            checkKafkaSource();
        }
        if (options.contains(JobOptions.SCHEMA_PATH) == options.contains(JobOptions.SPEC_PATH)) {
            throw new JobConfigException("set exactly one of schema.path and spec.path");
        }
        if (get(JobOptions.EVENT_TIME_SOURCE) == JobOptions.EventTimeSource.FEATURE
                && !options.contains(JobOptions.EVENT_TIME_FEATURE)) {
            throw new JobConfigException(
                    "event-time.source: feature needs event-time.feature (an int64 feature)");
        }
        positive(JobOptions.CHECKPOINT_INTERVAL);
        positive(JobOptions.BATCH_MAX_DELAY);
        positive(JobOptions.DLQ_WINDOW);
        positive(JobOptions.OUTPUT_TRANSACTION_TIMEOUT);
        notNegative(JobOptions.EVENT_TIME_OUT_OF_ORDERNESS);
        notNegative(JobOptions.EVENT_TIME_IDLENESS);
        atLeast(JobOptions.BATCH_MAX_RECORDS, 1);
        atLeast(JobOptions.DLQ_MAX_ERROR_BYTES, 0);
        atLeast(JobOptions.MAX_VALUES_PER_FEATURE, 1);
        atLeast(JobOptions.MAX_FEATURES_PER_EXAMPLE, 1);
        atLeast(JobOptions.MAX_RAGGED_ROWS, 1);
        int p = get(JobOptions.PARALLELISM);
        if (p == 0 || p < -1) {
            throw new JobConfigException(
                    "invalid value '" + p + "' for parallelism: expected -1 or a positive integer");
        }
        int port = get(JobOptions.REST_PORT);
        if (port < 0 || port > 65535) {
            throw new JobConfigException(
                    "invalid value '" + port + "' for rest.port: expected 0..65535");
        }
        double f = get(JobOptions.DLQ_MAX_FRACTION);
        if (!(f >= 0 && f <= 1)) {
            throw new JobConfigException(
                    "invalid value '" + f + "' for dlq.max-fraction: expected 0..1 (1: off)");
        }
        if (get(JobOptions.DLQ_MIN_RECORDS) < 1) {
            throw new JobConfigException("invalid value for dlq.min-records: expected >= 1");
        }
        intBytes(JobOptions.MAX_RECORD_BYTES);
        intBytes(JobOptions.MAX_BYTES_PER_VALUE);
        if (get(JobOptions.BATCH_MAX_BYTES).getBytes() < 1) {
            throw new JobConfigException("invalid value for batch.max-bytes: expected >= 1 byte");
        }
        if (options.contains(JobOptions.SHARDS_PATH)) {
            checkShards();
        }
        if (get(JobOptions.BATCH_MODE) == JobOptions.BatchMode.EVENT_TIME_WINDOW) {
            checkWindows();
        } else if (get(JobOptions.OUTPUT_BATCHES_KEY) == JobOptions.BatchKey.BATCH_KEY) {
            throw new JobConfigException(
                    "output.batches.key batch_key needs batch.mode event_time_window (batches"
                            + " closed by count, bytes or delay have no grouping key); use none or"
                            + " source_partition");
        }
        long payload = batchesMaxMessageBytes();
        if (payload < MIN_BATCH_MESSAGE_BYTES || payload > Integer.MAX_VALUE - 8) {
            throw new JobConfigException(
                    "invalid value '"
                            + payload
                            + " bytes' for output.batches.max-message-bytes (or"
                            + " output.properties.max.request.size): expected 4 KiB to 2 GiB");
        }
        if (get(JobOptions.JOB_NAME).isBlank()) {
            throw new JobConfigException("job.name must not be empty");
        }
        ValidationConfig.check(this);
    }

    private void checkKafkaSource() {
        require(JobOptions.SOURCE_BOOTSTRAP_SERVERS);
        boolean topics = options.contains(JobOptions.SOURCE_TOPICS);
        boolean pattern = options.contains(JobOptions.SOURCE_TOPIC_PATTERN);
        if (topics == pattern) {
            throw new JobConfigException(
                    "set exactly one of source.topics and source.topic-pattern");
        }
        if (topics && get(JobOptions.SOURCE_TOPICS).stream().anyMatch(String::isBlank)) {
            throw new JobConfigException("source.topics has an empty topic name");
        }
        if (pattern) {
            try {
                Pattern.compile(get(JobOptions.SOURCE_TOPIC_PATTERN));
            } catch (PatternSyntaxException e) {
                throw new JobConfigException(
                        "invalid value for source.topic-pattern: " + e.getDescription());
            }
        }
        StartingOffsets.parse(get(JobOptions.SOURCE_STARTING_OFFSETS));
    }

    private void checkFiles() {
        require(JobOptions.SOURCE_FILES_PATHS);
        if (!options.contains(JobOptions.SOURCE_BOOTSTRAP_SERVERS)
                && !options.contains(JobOptions.OUTPUT_BOOTSTRAP_SERVERS)) {
            throw new JobConfigException(
                    "source.type files needs output.bootstrap-servers (or"
                            + " source.bootstrap-servers) for the dead-letter topic");
        }
        for (String path : get(JobOptions.SOURCE_FILES_PATHS)) {
            try {
                io.tfstream.operators.files.FilePaths.parse(path);
            } catch (IllegalArgumentException e) {
                throw new JobConfigException(
                        "invalid value '" + path + "' in source.files.paths: " + e.getMessage());
            }
        }
        positive(JobOptions.SOURCE_FILES_DISCOVERY_INTERVAL);
    }

    private void checkWindows() {
        positive(JobOptions.BATCH_WINDOW);
        notNegative(JobOptions.BATCH_ALLOWED_LATENESS);
        if (get(JobOptions.BATCH_WINDOW_MAX_BUFFERED_BYTES).getBytes() < 1) {
            throw new JobConfigException(
                    "invalid value for batch.window-max-buffered-bytes: expected >= 1 byte");
        }
        if (get(JobOptions.EVENT_TIME_SOURCE) != JobOptions.EventTimeSource.KAFKA_TIMESTAMP) {
            throw new JobConfigException(
                    "batch.mode event_time_window needs event-time.source kafka_timestamp (the"
                            + " window of a record must be known before it is parsed)");
        }
        String key = get(JobOptions.BATCH_KEY);
        if (!key.equals("kafka_key")
                && !key.equals("source_partition")
                && !(key.startsWith("feature:") && key.length() > "feature:".length())) {
            throw new JobConfigException(
                    "invalid value '"
                            + key
                            + "' for batch.key: expected kafka_key, source_partition or"
                            + " feature:<name>");
        }
    }

    private void checkShards() {
        String path = get(JobOptions.SHARDS_PATH);
        String scheme = path.contains("://") ? path.substring(0, path.indexOf("://")) : "";
        if (!List.of("file", "s3", "s3a").contains(scheme)) {
            throw new JobConfigException(
                    "invalid value '"
                            + path
                            + "' for shards.path: expected file:///dir or s3://bucket/prefix");
        }
        String prefix = get(JobOptions.SHARDS_PREFIX);
        if (prefix.isEmpty()
                || prefix.startsWith(".")
                || prefix.startsWith("_")
                || prefix.contains("/")) {
            throw new JobConfigException(
                    "invalid value '"
                            + prefix
                            + "' for shards.prefix: expected a name not starting with '.' or '_'"
                            + " (readers skip those) and without '/'");
        }
        try {
            java.time.format.DateTimeFormatter.ofPattern(get(JobOptions.SHARDS_BUCKET_PATTERN))
                    .withZone(java.time.ZoneId.of(get(JobOptions.SHARDS_ZONE)))
                    .format(java.time.Instant.EPOCH);
        } catch (java.time.DateTimeException | IllegalArgumentException e) {
            throw new JobConfigException(
                    "invalid shards.bucket-pattern / shards.zone ('"
                            + get(JobOptions.SHARDS_BUCKET_PATTERN)
                            + "' in "
                            + get(JobOptions.SHARDS_ZONE)
                            + "): "
                            + e.getMessage());
        }
        positive(JobOptions.SHARDS_MAX_AGE);
        if (options.contains(JobOptions.SHARDS_MAX_BUCKET_SKEW)) {
            positive(JobOptions.SHARDS_MAX_BUCKET_SKEW);
        }
        if (get(JobOptions.SHARDS_TARGET_SIZE).getBytes() < 1) {
            throw new JobConfigException(
                    "invalid value for shards.target-size: expected >= 1 byte");
        }
        if (get(JobOptions.SHARDS_SUCCESS_MARKERS) && !get(JobOptions.SHARDS_MANIFESTS)) {
            throw new JobConfigException(
                    "shards.success-markers: true lists the shards by their manifests; set"
                            + " shards.manifests: true or shards.success-markers: false");
        }
    }

    private void require(ConfigOption<?> o) {
        if (!options.contains(o)) {
            throw new JobConfigException(o.key() + " is required: " + JobOptionsHelp.text(o));
        }
    }

    private void positive(ConfigOption<Duration> o) {
        Duration d = get(o);
        if (d.isNegative() || d.isZero()) {
            throw new JobConfigException(
                    "invalid value '" + d + "' for " + o.key() + ": expected a positive duration");
        }
    }

    private void notNegative(ConfigOption<Duration> o) {
        if (get(o).isNegative()) {
            throw new JobConfigException(
                    "invalid value '" + get(o) + "' for " + o.key() + ": expected >= 0");
        }
    }

    private void atLeast(ConfigOption<Integer> o, int min) {
        if (get(o) < min) {
            throw new JobConfigException(
                    "invalid value '" + get(o) + "' for " + o.key() + ": expected >= " + min);
        }
    }

    private void intBytes(ConfigOption<org.apache.flink.configuration.MemorySize> o) {
        long b = get(o).getBytes();
        if (b < 1 || b > Integer.MAX_VALUE - 8) {
            throw new JobConfigException(
                    "invalid value '" + get(o) + "' for " + o.key() + ": expected 1 byte to 2 GiB");
        }
    }

    public <T> T get(ConfigOption<T> o) {
        return options.get(o);
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

    /** Bytes of a payload message kept for its key, headers and Kafka's record framing. */
    public static final int BATCH_MESSAGE_RESERVE = 1024;

    private static final int MIN_BATCH_MESSAGE_BYTES = 4096;

    /**
     * The largest payload Kafka message: {@code output.batches.max-message-bytes}, else the
     * producer's {@code max.request.size}, else Kafka's default 1 MiB.
     */
    public long batchesMaxMessageBytes() {
        if (options.contains(JobOptions.OUTPUT_BATCHES_MAX_MESSAGE_BYTES)) {
            return get(JobOptions.OUTPUT_BATCHES_MAX_MESSAGE_BYTES).getBytes();
        }
        String request = outputProperties.getProperty("max.request.size");
        if (request != null) {
            try {
                return Long.parseLong(request.trim());
            } catch (NumberFormatException e) {
                throw new JobConfigException(
                        "invalid value '"
                                + request
                                + "' for output.properties.max.request.size: expected a number"
                                + " of bytes");
            }
        }
        return 1 << 20;
    }

    /** The largest serialized TensorBatch: the message limit less the reserve. */
    public int batchesMaxPayloadBytes() {
        return (int) (batchesMaxMessageBytes() - BATCH_MESSAGE_RESERVE);
    }

    /**
     * The {@code shards.max-bucket-skew} in force; empty when event times are not checked. A file
     * source is a replay of the past (a record's event time is its file's modification time, or an
     * event-time feature written back then), so its skew is checked only when the option is set; a
     * Kafka source is checked against {@link JobOptions#DEFAULT_MAX_BUCKET_SKEW} by default.
     */
    public Optional<Duration> maxBucketSkew() {
        if (options.contains(JobOptions.SHARDS_MAX_BUCKET_SKEW)) {
            return Optional.of(get(JobOptions.SHARDS_MAX_BUCKET_SKEW));
        }
        return get(JobOptions.SOURCE_TYPE) == JobOptions.SourceType.FILES
                ? Optional.empty()
                : Optional.of(JobOptions.DEFAULT_MAX_BUCKET_SKEW);
    }

    /** The output bootstrap servers: {@code output.bootstrap-servers} or the source's. */
    public String outputBootstrapServers() {
        return options.getOptional(JobOptions.OUTPUT_BOOTSTRAP_SERVERS)
                .orElse(get(JobOptions.SOURCE_BOOTSTRAP_SERVERS));
    }

    /** The settings as given, one {@code key: value} per line, secrets masked. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : given.entrySet()) {
            b.append(e.getKey())
                    .append(": ")
                    .append(isSecret(e.getKey()) ? "******" : e.getValue())
                    .append('\n');
        }
        return b.toString();
    }

    /** Whether a key's value must never be printed or logged. */
    static boolean isSecret(String key) {
        return SECRET.matcher(key.toLowerCase(Locale.ROOT)).matches();
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
