package io.tfstream.operators.shards.store;

import java.io.IOException;
import org.apache.flink.annotation.Internal;

/**
 * The bytes of a shard that checkpointed state still holds are gone from the store: its multipart
 * upload no longer exists (aborted by hand, by a lifecycle rule or by a store that expires stale
 * uploads, or completed by another job) or its in-progress file is missing or shorter than
 * persisted. Retrying cannot bring them back; {@code shards.on-lost-shard} decides whether the job
 * fails or drops the shard and goes on.
 */
@Internal
public final class LostShardException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String target;

    public LostShardException(String target, String why, Throwable cause) {
        super(target + ": " + why, cause);
        this.target = target;
    }

    /** The shard's full URI. */
    public String target() {
        return target;
    }
}
