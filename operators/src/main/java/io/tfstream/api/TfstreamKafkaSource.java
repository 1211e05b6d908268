package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.operators.source.SourceRecordDeserializer;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;

/**
 * Flink's {@link KafkaSource} reading {@link SourceRecord}s (value, key, headers, topic, partition,
 * offset, timestamp: what the parse takes), as {@code tfstream run}'s {@code source.*} options
 * build it:
 *
 * <pre>{@code
 * KafkaSource<SourceRecord> source = TfstreamKafkaSource.builder()
 *         .setBootstrapServers("broker:9092")
 *         .setTopics(List.of("examples"))
 *         .build();
 * DataStream<SourceRecord> records = env.fromSource(source, watermarks, "kafka-source");
 * }</pre>
 *
 * <p>Records are read with {@code isolation.level=read_committed} unless the properties say
 * otherwise: inputs written by exactly-once producers never show aborted transactions.
 */
public final class TfstreamKafkaSource {
    /** The consumer group by default. */
    public static final String DEFAULT_GROUP_ID = KafkaSourceOptions.GROUP_ID.defaultValue();

    private String bootstrapServers;
    private List<String> topics;
    private Pattern topicPattern;
    private String groupId = DEFAULT_GROUP_ID;
    private OffsetsInitializer startingOffsets = committedOrEarliest();
    private OffsetsInitializer stoppingOffsets;
    private Properties properties = new Properties();

    private TfstreamKafkaSource() {}

    /** A builder: set the brokers and the topics (required), then what differs. */
    public static TfstreamKafkaSource builder() {
        return new TfstreamKafkaSource();
    }

    /** The consumer group's committed offsets, earliest where it has none. */
    @SuppressWarnings("deprecation") // the connector's committedOffsets takes Kafka's old enum
    public static OffsetsInitializer committedOrEarliest() {
        return OffsetsInitializer.committedOffsets(
                org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST);
    }

    /** The brokers, {@code host:port[,host:port...]} (required). */
    public TfstreamKafkaSource setBootstrapServers(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        return this;
    }

    /** The topics read (this or {@link #setTopicPattern}). */
    public TfstreamKafkaSource setTopics(List<String> topics) {
        this.topics = topics;
        return this;
    }

    /** Every topic whose name matches, also those created later (this or {@link #setTopics}). */
    public TfstreamKafkaSource setTopicPattern(Pattern topicPattern) {
        this.topicPattern = topicPattern;
        return this;
    }

    /** The consumer group offsets are committed under (default {@value #DEFAULT_GROUP_ID}). */
    public TfstreamKafkaSource setGroupId(String groupId) {
        this.groupId = groupId;
        return this;
    }

    /**
     * Where a start without a checkpoint reads from (default {@link #committedOrEarliest()});
     * restores read from the checkpointed offsets.
     */
    public TfstreamKafkaSource setStartingOffsets(OffsetsInitializer startingOffsets) {
        this.startingOffsets = startingOffsets;
        return this;
    }

    /** Stop at these offsets, a bounded source (default: unbounded). */
    public TfstreamKafkaSource setBounded(OffsetsInitializer stoppingOffsets) {
        this.stoppingOffsets = stoppingOffsets;
        return this;
    }

    /** Consumer properties passed to the Kafka client as they are (default none). */
    public TfstreamKafkaSource setProperties(Properties properties) {
        this.properties = properties;
        return this;
    }

    /**
     * The Flink source, every setting checked.
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting
     */
    public KafkaSource<SourceRecord> build() {
        Properties p = consumerProperties();
        KafkaSourceBuilder<SourceRecord> b =
                KafkaSource.<SourceRecord>builder()
                        .setBootstrapServers(bootstrapServers)
                        .setGroupId(groupId)
                        .setStartingOffsets(startingOffsets)
                        .setDeserializer(new SourceRecordDeserializer())
                        .setProperties(p);
        if (stoppingOffsets != null) {
            b.setBounded(stoppingOffsets);
        }
        if (topics != null) {
            b.setTopics(topics);
        } else {
            b.setTopicPattern(topicPattern);
        }
        return b.build();
    }

    /**
     * The consumer properties the source runs with, settings checked first.
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting
     */
    Properties consumerProperties() {
        check(
                bootstrapServers != null && !bootstrapServers.isBlank(),
                "bootstrapServers must be a non-empty host:port list");
        check(
                (topics == null) != (topicPattern == null),
                "set exactly one of topics and topicPattern");
        check(
                topics == null || (!topics.isEmpty() && topics.stream().noneMatch(this::blank)),
                "topics must list non-empty topic names, got " + topics);
        check(groupId != null && !groupId.isBlank(), "groupId must be non-empty");
        check(startingOffsets != null, "startingOffsets must be set (it was set to null)");
        check(properties != null, "properties must be set (it was set to null)");
        Properties p = new Properties();
        p.putAll(properties);
        // Inputs written by exactly-once producers: never read aborted transactions.
        p.putIfAbsent("isolation.level", "read_committed");
        return p;
    }

    private boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
