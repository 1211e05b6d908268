package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** {@code shards.on-lost-shard}. */
@PublicEvolving
public enum LostShardAction {
    FAIL,
    DROP
}
