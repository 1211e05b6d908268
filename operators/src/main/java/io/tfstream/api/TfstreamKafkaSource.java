package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.KafkaSourceOptions;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.source.KafkaSource;
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
@PublicEvolving
public final class TfstreamKafkaSource {
    /** The consumer group by default. */
    public static final String DEFAULT_GROUP_ID = KafkaSourceOptions.GROUP_ID.defaultValue();

    private TfstreamKafkaSource() {}

    /** A builder: set the brokers and the topics (required), then what differs. */
    public static TfstreamKafkaSourceBuilder builder() {
        return new TfstreamKafkaSourceBuilder();
    }

    /** The consumer group's committed offsets, earliest where it has none. */
    @SuppressWarnings("deprecation") // the connector's committedOffsets takes Kafka's old enum
    public static OffsetsInitializer committedOrEarliest() {
        return OffsetsInitializer.committedOffsets(
                org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST);
    }
}
