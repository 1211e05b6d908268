package io.tfstream.operators.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;

/**
 * Committable summaries as the Flink line built for constructs them: 2.x dropped the pending count
 * from the constructor.
 */
@Internal
public final class CommittableMessages {
    private CommittableMessages() {}

    /**
     * The summary subtask {@code subtask} of {@code subtasks} sends ahead of its {@code
     * committables} committables of checkpoint {@code checkpointId}, none of them failed.
     */
    public static <T> CommittableSummary<T> summary(
            int subtask, int subtasks, long checkpointId, int committables) {
        return new CommittableSummary<>(subtask, subtasks, checkpointId, committables, 0);
    }

    /**
     * The checkpoint whose completion commits {@code message}; {@link Long#MAX_VALUE} for what the
     * end of input sends.
     */
    public static long checkpointOf(CommittableWithLineage<?> message) {
        return message.getCheckpointId();
    }
}
