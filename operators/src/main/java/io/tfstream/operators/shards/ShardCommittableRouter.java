package io.tfstream.operators.shards;

import io.tfstream.operators.compat.CommittableMessages;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Hands the committables of the buckets partitioned to it to its committer (it runs at the
 * committers' parallelism, one committer each), as Flink's committer expects them: per checkpoint a
 * {@link CommittableSummary} and then the committables, sent before the checkpoint's barrier (as
 * Flink's {@code CompactorOperator} does). A bucket's committables all reach this one subtask in
 * the order the coordinator sent them, so its {@code _SUCCESS} is committed after its shards. Keeps
 * no state: everything received before a barrier is sent before it.
 */
final class ShardCommittableRouter
        extends AbstractStreamOperator<CommittableMessage<ShardCommittable>>
        implements OneInputStreamOperator<
                        CommittableMessage<ShardCommittable>, CommittableMessage<ShardCommittable>>,
                BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private transient List<ShardCommittable> pending;
    private transient long lastCheckpoint;

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        pending = new ArrayList<>();
        lastCheckpoint = context.getRestoredCheckpointId().orElse(0L);
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<ShardCommittable>> element) {
        if (element.getValue() instanceof CommittableWithLineage) {
            pending.add(
                    ((CommittableWithLineage<ShardCommittable>) element.getValue())
                            .getCommittable());
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        emit(checkpointId);
    }

    @Override
    public void endInput() {
        // as Flink's CompactorOperator: the end of input belongs to the next checkpoint
        emit(lastCheckpoint + 1);
    }

    private void emit(long checkpointId) {
        lastCheckpoint = checkpointId;
        if (pending.isEmpty()) {
            return;
        }
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        output.collect(
                new StreamRecord<>(
                        CommittableMessages.<ShardCommittable>summary(
                                subtask,
                                getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
                                checkpointId,
                                pending.size())));
        for (ShardCommittable c : pending) {
            output.collect(
                    new StreamRecord<>(new CommittableWithLineage<>(c, checkpointId, subtask)));
        }
        pending.clear();
    }
}
