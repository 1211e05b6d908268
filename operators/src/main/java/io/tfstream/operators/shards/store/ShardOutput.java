package io.tfstream.operators.shards.store;

import java.io.IOException;
import org.apache.flink.annotation.Internal;

/** One open shard of a {@link ShardStore}: written once, front to back. Not thread-safe. */
@Internal
public interface ShardOutput {

    void write(byte[] b, int off, int len) throws IOException;

    /** The URI this shard becomes once committed. */
    String target();

    /** Bytes written to this shard so far, including what came before a resume. */
    long size();

    /**
     * How many more bytes this shard takes for certain, whatever checkpoints come (S3: its parts
     * left); the writer finishes the shard before a record that may not fit.
     */
    default long room() {
        return Long.MAX_VALUE;
    }

    /**
     * Bytes of data the next {@link #persist()} puts into the checkpoint itself (S3: the tail below
     * a part) once {@code pending} more bytes are written; 0 where the store keeps only a position.
     */
    default long checkpointBytes(long pending) {
        return 0;
    }

    /**
     * Makes everything written so far durable and returns the state to {@link ShardStore#resume}
     * from; the shard stays open. Called at every checkpoint.
     */
    byte[] persist() throws IOException;

    /**
     * Closes the shard for commit: everything written is durable, nothing is visible yet. Returns
     * the committable state for {@link ShardStore#commit}.
     */
    byte[] closeForCommit() throws IOException;

    /**
     * Releases what this output holds on the task (buffers, streams) without committing or deleting
     * anything a checkpoint may still refer to.
     */
    void release();
}
