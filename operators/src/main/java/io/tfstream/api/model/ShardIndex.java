package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** {@code shards.index}: the index file written for each finished shard. */
@PublicEvolving
public enum ShardIndex {
    /** No index file. */
    NONE,
    /**
     * NVIDIA DALI's index ({@code tfrecord2idx}: one {@code <offset> <length>} line per record),
     * which DALI's {@code fn.readers.tfrecord} needs; uncompressed shards only.
     */
    DALI
}
