package io.tfstream.operators.shards.store;

import java.io.IOException;
import org.apache.flink.annotation.Internal;

/**
 * Where the bytes of shards go, written once: a shard is opened under its final name, written as
 * records arrive, made durable at every checkpoint ({@link ShardOutput#persist()}), resumed from
 * such a point after a failure, closed, and made visible by {@link #commit} only after the
 * checkpoint that closed it completes. Nothing but committed shards is ever visible under the
 * shards' names.
 *
 * <p>One implementation per kind of file system: {@link RecoverableShardStore} for every Flink file
 * system with a {@code RecoverableWriter} ({@code file://}, {@code hdfs://}, {@code gs://}, {@code
 * abfs://}, ...), {@link S3ShardStore} for {@code s3://} and {@code s3a://} (one multipart upload
 * per shard, the unfinished tail kept in the checkpoint). Instances live on a task, never in the
 * job graph; {@link ShardStoreFactory} is what travels.
 *
 * <p>A store never removes what it handed out towards a snapshot ({@link ShardOutput#persist()},
 * {@link #handOver}): no writer can prove that no retained checkpoint or savepoint, of this job or
 * of another restored from it, still holds it. It removes what it created itself and never handed
 * out on {@link #close()}: shards opened since the last snapshot, and shards closed for commit that
 * the writer never passed on (a graceful cancel between a shard's end and the next checkpoint).
 * What crashed attempts leave is listed and removed by {@code tfstream shards uploads}.
 *
 * <p>The byte arrays handed out ({@link ShardOutput#persist()}, {@link
 * ShardOutput#closeForCommit()}) are the store's own versioned encoding and go into checkpointed
 * state as they are.
 */
@Internal
public interface ShardStore extends AutoCloseable {

    /**
     * Opens a new shard that becomes {@code target} (a full URI: base path, bucket directory and
     * file name) once committed.
     */
    ShardOutput open(String target) throws IOException;

    /**
     * Continues a shard from the point {@code persisted} (from {@link ShardOutput#persist()})
     * describes; bytes written after that point by a failed attempt are not part of it.
     *
     * <p>Where the store can read what it holds of the shard (file systems; on S3 a shard with no
     * uploaded part, whose bytes are all in {@code persisted}), it copies them into a new shard
     * {@code copyTarget} and leaves the original untouched: two writers restored from one snapshot
     * (a savepoint restored into a second job while the first keeps running, a failover while a
     * lost TaskManager still writes) then never append to one file. Otherwise (S3 with parts
     * uploaded, which cannot be read back) it reopens the shard itself. {@link
     * ShardOutput#target()} of the result says which.
     *
     * @throws LostShardException when the store no longer holds the shard's bytes
     */
    ShardOutput resume(byte[] persisted, String copyTarget) throws IOException;

    /**
     * Whether {@link #resume} of {@code persisted} reopens the shard itself (an S3 upload with
     * parts, a file system without in-progress files to copy) rather than a copy: two jobs restored
     * from one snapshot then share it, and only one of them can commit it.
     */
    boolean resumesInPlace(byte[] persisted) throws IOException;

    /**
     * Makes the shard {@code closed} (from {@link ShardOutput#closeForCommit()}) visible under its
     * name. Idempotent: repeating a commit that went through (after a recovery) succeeds without
     * changing the shard. Never replaces another object or file under that name.
     *
     * @throws LostShardException when the store no longer holds the shard's bytes and no earlier
     *     commit made it visible
     * @return the shard's URI
     */
    String commit(byte[] closed) throws IOException;

    /**
     * The writer passes closed shard {@code closed} (from {@link ShardOutput#closeForCommit()}) on
     * to the commit path: from now on a snapshot may hold it, and {@link #close()} leaves it.
     */
    void handOver(byte[] closed) throws IOException;

    /**
     * Removes the in-progress file that {@code persisted} (from {@link ShardOutput#persist()})
     * continues, if it is still there, never a committed shard: a failover's copy superseded it and
     * nothing will restore it any more. A no-op where a resume continues the shard itself (S3 with
     * uploaded parts) or holds every byte in the state.
     */
    void retire(byte[] persisted) throws IOException;

    /**
     * Removes what earlier attempts left under {@code target}'s name without persisting it into a
     * completed checkpoint: the copies made by attempts that restored the same checkpoint and
     * failed before their next one (their names are derived from it, see {@code ShardWriter}).
     * Called before such a copy is made again, only when no savepoint of the job may hold them.
     */
    void discardStale(String target) throws IOException;

    /**
     * Removes what failed attempts stored for the shard {@code persisted} describes after it was
     * persisted, where the store keeps that apart from what {@code persisted} holds: on S3 the
     * upload a shard with no uploaded part at the checkpoint got when its first part filled later.
     * Called before a failover resumes its own shard, only when no savepoint of the job may hold
     * it.
     */
    void discardAfter(byte[] persisted) throws IOException;

    /** The target URI of a closed shard, without committing it. */
    String targetOf(byte[] closed) throws IOException;

    @Override
    void close() throws IOException;
}
