package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** What happens to a record for a complete bucket. */
@PublicEvolving
public enum LateBucketAction {
    /** Written into a new shard of the bucket; the bucket's marker is written again. */
    WRITE,
    /** Dead-lettered with reason {@code late}: in no shard and not in the records topic. */
    DEAD_LETTER
}
