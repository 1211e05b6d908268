package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Creates the {@link ShardStore} of a base path on a task. Holds only small serializable settings
 * (never credentials); the store and its clients are built in {@link #create()}.
 */
@FunctionalInterface
@PublicEvolving
public interface ShardStoreFactory extends Serializable {
    ShardStore create() throws IOException;
}
