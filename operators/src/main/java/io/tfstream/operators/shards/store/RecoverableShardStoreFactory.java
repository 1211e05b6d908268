package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/** Creates a {@link RecoverableShardStore} of a base path on the task; holds only the path. */
@PublicEvolving
public final class RecoverableShardStoreFactory implements ShardStoreFactory {
    private static final long serialVersionUID = 1L;

    private final String basePath;

    public RecoverableShardStoreFactory(String basePath) {
        this.basePath = Objects.requireNonNull(basePath, "basePath");
    }

    @Override
    public ShardStore create() throws IOException {
        return RecoverableShardStore.of(basePath);
    }

    @Override
    public String toString() {
        return "RecoverableShardStoreFactory{" + basePath + "}";
    }
}
