package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What happens to a late record: one for an event-time window already closed ({@link
 * WindowSettings}: {@link #DEAD_LETTER} or {@link #DROP}), or for a shard bucket already marked
 * complete (the shards' late-bucket guard: {@link #WRITE} or {@link #DEAD_LETTER}). Late records
 * are counted either way.
 */
@PublicEvolving
public enum LateRecords {
    /** Written into a new shard of its bucket; the bucket's marker is written again. */
    WRITE,
    /** Dead-lettered with reason {@code late}: in no output but the dead letters. */
    DEAD_LETTER,
    /** Dropped. */
    DROP
}
