package io.tfstream.operators.shards;

import io.tfstream.api.model.LostShardAction;
import io.tfstream.operators.shards.store.LostShardException;
import io.tfstream.shards.ShardStats;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a shard whose bytes the store lost ({@link LostShardException}) while state still
 * holds it, as {@code shards.on-lost-shard} says: {@link LostShardAction#FAIL} fails with the
 * shard, where it was and the source ranges it held (the job restarts and fails again until someone
 * decides); {@link LostShardAction#DROP} logs the same, counts {@code tfstream.shardsLost} and
 * {@code tfstream.shardRecordsLost}, and goes on without it.
 */
@Internal
public final class LostShards {
    private static final Logger LOG = LoggerFactory.getLogger(LostShards.class);

    private final LostShardAction action;
    private final Counter shards;
    private final Counter records;

    LostShards(LostShardAction action, MetricGroup metrics) {
        this.action = action;
        MetricGroup g = metrics.addGroup("tfstream");
        this.shards = g.counter("shardsLost");
        this.records = g.counter("shardRecordsLost");
    }

    /**
     * Handles the loss of a shard holding {@code stats}: returns when it is dropped, throws when
     * the job must fail.
     */
    synchronized void lost(LostShardException e, ShardStats stats) throws IOException {
        String what =
                "shard "
                        + e.target()
                        + " is lost ("
                        + e.getMessage()
                        + "); it held "
                        + stats.records()
                        + " records from "
                        + stats.sources();
        if (action == LostShardAction.FAIL) {
            throw new IOException(
                    what
                            + ". Restore a checkpoint that does not hold it, or set"
                            + " shards.on-lost-shard: drop to drop it and go on (those records are"
                            + " then in no shard)",
                    e);
        }
        LOG.warn("Dropping {} (shards.on-lost-shard: drop)", what);
        shards.inc();
        records.inc(stats.records());
    }
}
