package io.tfstream.api.model;

/** {@code shards.on-lost-shard}. */
public enum LostShardAction {
    FAIL,
    DROP
}
