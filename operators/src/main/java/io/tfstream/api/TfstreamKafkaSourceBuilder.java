package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.operators.source.SourceRecordDeserializer;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;

/** The builder of a {@link TfstreamKafkaSource}: brokers, topics, group, offsets, properties. */
@PublicEvolving
public final class TfstreamKafkaSourceBuilder {
    private String bootstrapServers;
    private List<String> topics;
    private Pattern topicPattern;
    private String groupId = TfstreamKafkaSource.DEFAULT_GROUP_ID;
    private OffsetsInitializer startingOffsets = TfstreamKafkaSource.committedOrEarliest();
    private OffsetsInitializer stoppingOffsets;
    private Properties properties = new Properties();

    TfstreamKafkaSourceBuilder() {}

    /**
     * Takes every {@link KafkaSourceOptions} set in {@code config} ({@code bootstrap-servers},
     * {@code topics}, {@code topic-pattern}, {@code group-id}, {@code starting-offsets}, {@code
     * stopping-offsets}; keys relative to the stage), checked as {@code tfstream run} checks {@code
     * source.*}. Unset options keep their values.
     *
     * @throws IllegalArgumentException naming the key of a value out of range
     */
    public TfstreamKafkaSourceBuilder fromConfig(ReadableConfig config) {
        KafkaSourceOptions.OPTIONS.checkAll(config, "");
        config.getOptional(KafkaSourceOptions.BOOTSTRAP_SERVERS)
                .ifPresent(this::setBootstrapServers);
        config.getOptional(KafkaSourceOptions.TOPICS).ifPresent(this::setTopics);
        config.getOptional(KafkaSourceOptions.TOPIC_PATTERN)
                .ifPresent(p -> setTopicPattern(Pattern.compile(p)));
        config.getOptional(KafkaSourceOptions.GROUP_ID).ifPresent(this::setGroupId);
        config.getOptional(KafkaSourceOptions.STARTING_OFFSETS)
                .ifPresent(
                        v ->
                                setStartingOffsets(
                                        KafkaSourceOptions.startingOffsets(
                                                v, KafkaSourceOptions.STARTING_OFFSETS.key())));
        config.getOptional(KafkaSourceOptions.STOPPING_OFFSETS)
                .ifPresent(
                        s ->
                                setBounded(
                                        s == KafkaSourceOptions.StoppingOffsets.LATEST
                                                ? OffsetsInitializer.latest()
                                                : null));
        return this;
    }

    /** The brokers, {@code host:port[,host:port...]} (required). */
    public TfstreamKafkaSourceBuilder setBootstrapServers(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        return this;
    }

    /** The topics read (this or {@link #setTopicPattern}). */
    public TfstreamKafkaSourceBuilder setTopics(List<String> topics) {
        this.topics = topics;
        return this;
    }

    /** Every topic whose name matches, also those created later (this or {@link #setTopics}). */
    public TfstreamKafkaSourceBuilder setTopicPattern(Pattern topicPattern) {
        this.topicPattern = topicPattern;
        return this;
    }

    /**
     * The consumer group offsets are committed under (default {@value
     * TfstreamKafkaSource#DEFAULT_GROUP_ID}).
     */
    public TfstreamKafkaSourceBuilder setGroupId(String groupId) {
        this.groupId = groupId;
        return this;
    }

    /**
     * Where a start without a checkpoint reads from (default {@link #committedOrEarliest()});
     * restores read from the checkpointed offsets.
     */
    public TfstreamKafkaSourceBuilder setStartingOffsets(OffsetsInitializer startingOffsets) {
        this.startingOffsets = startingOffsets;
        return this;
    }

    /** Stop at these offsets, a bounded source (default: unbounded). */
    public TfstreamKafkaSourceBuilder setBounded(OffsetsInitializer stoppingOffsets) {
        this.stoppingOffsets = stoppingOffsets;
        return this;
    }

    /** Consumer properties passed to the Kafka client as they are (default none). */
    public TfstreamKafkaSourceBuilder setProperties(Properties properties) {
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
