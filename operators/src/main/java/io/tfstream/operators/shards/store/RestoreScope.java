package io.tfstream.operators.shards.store;

/**
 * What a restored writer subtask may clean up ({@link ShardStore#cleanUpAfterRestore}): shards
 * opened by job {@code restoredJobId} after checkpoint {@code restoredCheckpointId} by a subtask
 * whose index maps to {@code subtask} at {@code parallelism} ({@code index % parallelism ==
 * subtask}). Shards opened at or before that checkpoint may be held by it, by an older retained
 * checkpoint or by a savepoint, and are never touched.
 */
public record RestoreScope(
        String restoredJobId, long restoredCheckpointId, int subtask, int parallelism) {}
