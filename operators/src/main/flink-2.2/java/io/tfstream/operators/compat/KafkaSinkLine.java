package io.tfstream.operators.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The Kafka connector's sink as the line's connector release (5.0.0-2.2) shows it: its writer state
 * and committables are public types, and it adds a topology after its committer.
 */
@Internal
public final class KafkaSinkLine {
    private KafkaSinkLine() {}

    /** The transactional-id prefix a {@code KafkaWriterState} was written under. */
    public static String transactionalIdPrefix(Object writerState) {
        return ((KafkaWriterState) writerState).getTransactionalIdPrefix();
    }

    /** The transactional id of a {@code KafkaCommittable}. */
    public static String transactionalId(Object committable) {
        return ((KafkaCommittable) committable).getTransactionalId();
    }

    /** What {@code sink} adds after its committer (it pins the committer next to its writer). */
    @SuppressWarnings({"unchecked", "rawtypes"}) // the committables are the sink's own
    public static void addPostCommitTopology(
            KafkaSink<?> sink, DataStream<CommittableMessage<Object>> committables) {
        sink.addPostCommitTopology((DataStream) committables);
    }
}
