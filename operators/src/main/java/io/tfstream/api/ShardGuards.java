package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The guards in front of {@link TfRecordShards}, from its settings ({@link
 * TfRecordShards#guards()}): bucket skew, data splits by a feature, late buckets, each present only
 * when the shards' settings call for it. A step of its own, so that the records topic (or any
 * output that must agree with the shards) can take the guarded records too.
 */
@PublicEvolving
public final class ShardGuards {
    private final TfRecordShards.Guards guards;

    ShardGuards(TfRecordShards.Guards guards) {
        this.guards = guards;
    }

    /**
     * {@code records} through the guards: {@link GuardedRecords#records()} to write, and the
     * guards' dead letters when a guard dead-letters.
     */
    public GuardedRecords applyTo(DataStream<SourceRecord> records) {
        return TfRecordShards.apply(guards, records);
    }
}
