package io.tfstream.operators.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;

/**
 * Committable summaries as the Flink line built for constructs them: 1.20 also counts the pending
 * committables, all of them as its own sink writer operator counts them.
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
        return new CommittableSummary<>(
                subtask, subtasks, checkpointId, committables, committables, 0);
    }
}
