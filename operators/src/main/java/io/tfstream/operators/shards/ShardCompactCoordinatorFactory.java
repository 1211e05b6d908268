package io.tfstream.operators.shards;

import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.compactor.operator.CompactorRequest;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/** Builds the {@link ShardCompactCoordinator} on the task; holds only the sink (its settings). */
final class ShardCompactCoordinatorFactory extends AbstractStreamOperatorFactory<CompactorRequest>
        implements OneInputStreamOperatorFactory<
                CommittableMessage<FileSinkCommittable>, CompactorRequest> {
    private static final long serialVersionUID = 1L;

    private final TfRecordShardSink sink;

    ShardCompactCoordinatorFactory(TfRecordShardSink sink) {
        this.sink = sink;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends StreamOperator<CompactorRequest>> T createStreamOperator(
            StreamOperatorParameters<CompactorRequest> parameters) {
        return (T)
                new ShardCompactCoordinator(
                        parameters, sink.settings(), sink.getCommittableSerializer());
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
        return ShardCompactCoordinator.class;
    }
}
