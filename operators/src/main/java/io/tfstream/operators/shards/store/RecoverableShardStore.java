package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;
import org.apache.flink.core.fs.RecoverableWriter.ResumeRecoverable;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * A {@link ShardStore} over the {@link RecoverableWriter} of a Flink file system ({@code file://},
 * {@code hdfs://}, {@code gs://}, {@code abfs://}, ...): a shard is the writer's in-progress file
 * ({@code .<name>.inprogress.<uuid>} beside the target on local and Hadoop file systems), {@link
 * ShardOutput#persist()} is the stream's {@code persist()}, a resume truncates what a failed
 * attempt wrote after it, and {@link #commit} is {@code recoverForCommit(..).commitAfterRecovery()}
 * (a rename on local and Hadoop file systems; idempotent).
 *
 * <p>State bytes (version {@link #FORMAT}): format, target URI, size, then the writer's own
 * recoverable with its serializer's version.
 *
 * <p>{@link #cleanUpAfterRestore} removes nothing: in-progress files of shards a failed attempt
 * opened after the restored checkpoint stay behind as hidden files ({@code .<name>.inprogress.*}),
 * which readers of the shards skip; finding them would mean listing every bucket of the base path
 * at each restore.
 */
public final class RecoverableShardStore implements ShardStore {
    /** Version of the bytes this store hands out. */
    static final int FORMAT = 1;

    private final RecoverableWriter writer;

    RecoverableShardStore(RecoverableWriter writer) {
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** The store of {@code basePath}'s file system; fails when it has no resumable writer. */
    public static RecoverableShardStore of(String basePath) throws IOException {
        return new RecoverableShardStore(writerOf(basePath));
    }

    /**
     * The recoverable writer of {@code basePath}'s file system.
     *
     * @throws IOException naming the scheme and why: an unknown scheme, a file system without a
     *     recoverable writer, or one whose writer cannot resume a file after a failure
     */
    public static RecoverableWriter writerOf(String basePath) throws IOException {
        Path base = new Path(basePath);
        String scheme = base.toUri().getScheme();
        FileSystem fs;
        try {
            fs = FileSystem.get(base.toUri());
        } catch (IOException e) {
            throw new IOException(
                    "shards.path "
                            + basePath
                            + ": no Flink file system for scheme '"
                            + scheme
                            + "' ("
                            + e.getMessage()
                            + "); install its plugin",
                    e);
        }
        RecoverableWriter w;
        try {
            w = fs.createRecoverableWriter();
        } catch (UnsupportedOperationException e) {
            throw new IOException(
                    "shards.path "
                            + basePath
                            + ": the file system of scheme '"
                            + scheme
                            + "' has no recoverable writer, which exactly-once shards need ("
                            + e.getMessage()
                            + ")",
                    e);
        }
        if (!w.supportsResume()) {
            throw new IOException(
                    "shards.path "
                            + basePath
                            + ": the recoverable writer of scheme '"
                            + scheme
                            + "' cannot resume a file after a failure, which shards kept open"
                            + " across checkpoints need");
        }
        return w;
    }

    @Override
    public ShardOutput open(String target) throws IOException {
        Path path = new Path(target);
        return new Output(path, writer.open(path), 0);
    }

    @Override
    public ShardOutput resume(byte[] persisted) throws IOException {
        DataInputDeserializer in = read(persisted, "persisted");
        Path target = new Path(in.readUTF());
        long size = in.readLong();
        ResumeRecoverable r =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        writer.getResumeRecoverableSerializer(), in);
        return new Output(target, writer.recover(r), size);
    }

    @Override
    public String commit(byte[] closed) throws IOException {
        DataInputDeserializer in = read(closed, "closed");
        String target = in.readUTF();
        in.readLong();
        CommitRecoverable r =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        writer.getCommitRecoverableSerializer(), in);
        writer.recoverForCommit(r).commitAfterRecovery();
        return target;
    }

    @Override
    public String targetOf(byte[] closed) throws IOException {
        return read(closed, "closed").readUTF();
    }

    @Override
    public void cleanUpAfterRestore(RestoreScope scope) {
        // see the class comment: leftovers are hidden in-progress files, not swept
    }

    @Override
    public void close() {}

    private static DataInputDeserializer read(byte[] bytes, String what) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        int format = in.readInt();
        if (format != FORMAT) {
            throw new IOException(
                    "unknown format "
                            + format
                            + " of a "
                            + what
                            + " shard (this build reads "
                            + FORMAT
                            + ")");
        }
        return in;
    }

    /**
     * One open in-progress file. Unbuffered: the {@code ShardEncoder} in front of it hands over its
     * bytes in buffer-sized chunks.
     */
    private final class Output implements ShardOutput {
        private final Path target;
        private final RecoverableFsDataOutputStream out;
        private long size;

        Output(Path target, RecoverableFsDataOutputStream out, long size) {
            this.target = target;
            this.out = out;
            this.size = size;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            size += len;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public byte[] persist() throws IOException {
            ResumeRecoverable r = out.persist();
            DataOutputSerializer o = header();
            SimpleVersionedSerialization.writeVersionAndSerialize(
                    writer.getResumeRecoverableSerializer(), r, o);
            return o.getCopyOfBuffer();
        }

        @Override
        public byte[] closeForCommit() throws IOException {
            CommitRecoverable r = out.closeForCommit().getRecoverable();
            DataOutputSerializer o = header();
            SimpleVersionedSerialization.writeVersionAndSerialize(
                    writer.getCommitRecoverableSerializer(), r, o);
            return o.getCopyOfBuffer();
        }

        private DataOutputSerializer header() throws IOException {
            DataOutputSerializer o = new DataOutputSerializer(256);
            o.writeInt(FORMAT);
            o.writeUTF(target.toString());
            o.writeLong(size);
            return o;
        }

        @Override
        public void release() {
            try {
                // closing the stream keeps what persist() made durable (Flink's contract)
                out.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot release shard " + target, e);
            }
        }
    }
}
