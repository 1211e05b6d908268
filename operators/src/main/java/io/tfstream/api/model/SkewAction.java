package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** What happens to a record beyond the skew. */
@PublicEvolving
public enum SkewAction {
    /** Dead-lettered with reason {@code validation}: in no output. */
    DEAD_LETTER,
    /**
     * Passed on unchanged, only counted: the shard sink buckets it by processing time ({@link
     * ShardSettings#maxBucketSkew}).
     */
    PROCESSING_TIME
}
