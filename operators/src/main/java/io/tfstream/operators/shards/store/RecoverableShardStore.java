package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FSDataInputStream;
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
 * ShardOutput#persist()} is the stream's {@code persist()}, a resume copies the persisted bytes
 * into a new in-progress file (never appending to one another writer may still hold), and {@link
 * #commit} is {@code recoverForCommit(..).commitAfterRecovery()} (a rename on local and Hadoop file
 * systems; idempotent).
 *
 * <p>State bytes (version {@link #FORMAT}): format, target URI, size, then the writer's own
 * recoverable with its serializer's version.
 *
 * <p>In-progress files of shards a crashed attempt opened stay behind as hidden files ({@code
 * .<name>.inprogress.*}), see {@link ShardStore}: {@code tfstream shards uploads} lists and removes
 * them. On {@link #close()} the store deletes the in-progress files of its own outputs that no
 * persist or hand-over passed on: no snapshot can hold them. A commit never replaces a file: an
 * existing target is taken as an earlier commit of the same shard only with the same size, and a
 * commit is checked to have made the shard visible (Hadoop's committer ignores a refused rename).
 */
@Internal
public final class RecoverableShardStore implements ShardStore {
    /** Version of the bytes this store hands out. */
    static final int FORMAT = 1;

    private final RecoverableWriter writer;

    /** Outputs this store created that no persist or hand-over passed on, by target. */
    private final java.util.Map<String, Output> unheld = new java.util.LinkedHashMap<>();

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
        return unheld(new Output(target, writer.open(new Path(target)), 0));
    }

    private synchronized Output unheld(Output out) {
        unheld.put(out.target, out);
        return out;
    }

    private synchronized void held(Output out) {
        unheld.remove(out.target, out);
    }

    private synchronized boolean isUnheld(Output out) {
        return unheld.get(out.target) == out;
    }

    /** What {@link Output#persist()} handed out: the target, its size and the writer's point. */
    private record Persisted(String target, long size, ResumeRecoverable recoverable) {}

    private Persisted persisted(byte[] bytes) throws IOException {
        DataInputDeserializer in = read(bytes, "persisted");
        String target = in.readUTF();
        long size = in.readLong();
        return new Persisted(
                target,
                size,
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        writer.getResumeRecoverableSerializer(), in));
    }

    @Override
    public ShardOutput resume(byte[] persisted, String copyTarget) throws IOException {
        Persisted p = persisted(persisted);
        String target = p.target();
        long size = p.size();
        Path inProgress = inProgressFileOf(p.recoverable());
        if (inProgress == null) {
            return resumeInPlace(target, size, p.recoverable());
        }
        RecoverableFsDataOutputStream out = writer.open(new Path(copyTarget));
        try {
            copyPrefix(inProgress, target, size, out);
        } catch (IOException | RuntimeException e) {
            // the copy was never handed out: a hidden leftover at worst, listed by the CLI
            out.close();
            throw e;
        }
        return unheld(new Output(copyTarget, out, size));
    }

    @Override
    public boolean resumesInPlace(byte[] persisted) throws IOException {
        return inProgressFileOf(persisted(persisted).recoverable()) == null;
    }

    /**
     * Copies the first {@code size} bytes of the shard: from its in-progress file, or from the
     * target once the writer that opened it committed it (it only ever appended after them).
     */
    private static void copyPrefix(
            Path inProgress, String target, long size, RecoverableFsDataOutputStream out)
            throws IOException {
        FileSystem fs = inProgress.getFileSystem();
        Path from = inProgress;
        if (!fs.exists(from)) {
            from = new Path(target);
            if (!fs.exists(from)) {
                throw new LostShardException(
                        target,
                        "its in-progress file "
                                + inProgress
                                + " is gone and it was never committed",
                        null);
            }
        }
        // Read rather than trust the file's listed length: for an HDFS file still being written
        // (the first job of a blue/green pair goes on with it) the NameNode lists less than the
        // writer has flushed, while readers see every flushed byte. Lost is where the bytes end.
        byte[] buffer = new byte[(int) Math.min(1 << 20, Math.max(1, size))];
        try (FSDataInputStream in = fs.open(from)) {
            long left = size;
            while (left > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new LostShardException(
                            target,
                            from + " ended after " + (size - left) + " of " + size + " bytes",
                            null);
                }
                out.write(buffer, 0, n);
                left -= n;
            }
        } catch (LostShardException e) {
            throw e;
        } catch (IOException e) {
            String missing = missingBlocks(e);
            if (missing == null) {
                throw e;
            }
            // No lease recovery: the file may be another live job's (blue/green), whose lease
            // must stand. Lost names it; with fail every restart tries again.
            throw new LostShardException(
                    target,
                    "its file "
                            + from
                            + " cannot be read: no datanode holding its blocks answers ("
                            + missing
                            + "). A file still open for writing reads again once a datanode"
                            + " holding it is back and its lease is recovered: by the NameNode"
                            + " after the lease's hard limit (an hour by default), or by hand"
                            + " (hdfs debug recoverLease -path FILE) once no job writes it",
                    e);
        }
    }

    /**
     * The HDFS client's exception in {@code e}'s causes that says no datanode holding the file's
     * blocks answers (a missing block, or the last block's length of a file still open for
     * writing), or null for any other failure. By name: no Hadoop class is on this module's path.
     */
    static String missingBlocks(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String name = c.getClass().getSimpleName();
            if (name.equals("BlockMissingException")
                    || name.equals("CannotObtainBlockLengthException")) {
                return name + ": " + c.getMessage();
            }
        }
        return null;
    }

    /**
     * The in-progress file of a recoverable of the local or a Hadoop file system ({@code
     * LocalRecoverable}, {@code HadoopFsRecoverable}, also shaded in the cloud plugins), by their
     * public {@code tempFile()}; null for writers without one (GCS's composed objects).
     */
    static Path inProgressFileOf(Object r) {
        Object file;
        try {
            java.lang.reflect.Method tempFile = r.getClass().getMethod("tempFile");
            tempFile.setAccessible(true); // LocalRecoverable is package-private
            file = tempFile.invoke(r);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
        if (file instanceof java.io.File f) {
            return Path.fromLocalFile(f);
        }
        return file == null ? null : new Path(file.toString());
    }

    /** Reopens the in-progress file itself, for writers whose files cannot be read back. */
    private Output resumeInPlace(String target, long size, ResumeRecoverable r) throws IOException {
        try {
            return new Output(target, writer.recover(r), size);
        } catch (IOException e) {
            // The in-progress file is gone or shorter than persisted: its bytes cannot come back.
            throw new LostShardException(
                    target,
                    "its in-progress file cannot be resumed at "
                            + size
                            + " bytes ("
                            + e.getMessage()
                            + ")",
                    e);
        }
    }

    @Override
    public String commit(byte[] closed) throws IOException {
        DataInputDeserializer in = read(closed, "closed");
        String target = in.readUTF();
        long size = in.readLong();
        CommitRecoverable r =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        writer.getCommitRecoverableSerializer(), in);
        Path path = new Path(target);
        FileSystem fs = path.getFileSystem();
        if (fs.exists(path)) {
            requireSize(fs, path, size, "already exists with");
            return target; // an earlier commit of this shard
        }
        try {
            writer.recoverForCommit(r).commitAfterRecovery();
        } catch (IOException e) {
            if (!fs.exists(path)) {
                throw new LostShardException(
                        target,
                        "its in-progress file cannot be committed (" + e.getMessage() + ")",
                        e);
            }
        }
        if (!fs.exists(path)) {
            throw new LostShardException(
                    target, "the commit made nothing visible: its in-progress file is gone", null);
        }
        requireSize(fs, path, size, "was committed with");
        return target;
    }

    private static void requireSize(FileSystem fs, Path path, long size, String what)
            throws IOException {
        long actual = fs.getFileStatus(path).getLen();
        if (actual != size) {
            throw new IOException(
                    path
                            + " "
                            + what
                            + " "
                            + actual
                            + " bytes, but the shard has "
                            + size
                            + ": not replacing another file (did another job restored from the"
                            + " same checkpoint or savepoint write it, or a rename refuse to"
                            + " replace it?)");
        }
    }

    @Override
    public void retire(byte[] persisted) throws IOException {
        Persisted p = persisted(persisted);
        Path inProgress = inProgressFileOf(p.recoverable());
        if (inProgress == null || inProgress.equals(new Path(p.target()))) {
            return; // continued in place: nothing of its own to remove
        }
        inProgress.getFileSystem().delete(inProgress, false);
    }

    @Override
    public void discardStale(String target) throws IOException {
        Path t = new Path(target);
        Path dir = t.getParent();
        FileSystem fs = dir.getFileSystem();
        org.apache.flink.core.fs.FileStatus[] entries;
        try {
            entries = fs.listStatus(dir);
        } catch (java.io.FileNotFoundException e) {
            return;
        }
        if (entries == null) {
            return;
        }
        String stale = "." + t.getName() + ".inprogress.";
        for (org.apache.flink.core.fs.FileStatus e : entries) {
            if (!e.isDir() && e.getPath().getName().startsWith(stale)) {
                fs.delete(e.getPath(), false);
            }
        }
    }

    /** Nothing: bytes written after the checkpoint are in the same file, cut off by the copy. */
    @Override
    public void discardAfter(byte[] persisted) {}

    @Override
    public synchronized void handOver(byte[] closed) throws IOException {
        unheld.remove(targetOf(closed));
    }

    @Override
    public String targetOf(byte[] closed) throws IOException {
        return read(closed, "closed").readUTF();
    }

    /** Deletes the in-progress files of the outputs no snapshot can hold (never persisted). */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        List<Output> left;
        synchronized (this) {
            left = List.copyOf(unheld.values());
            unheld.clear();
        }
        for (Output out : left) {
            try {
                out.discard();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

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
        private final String target;
        private final RecoverableFsDataOutputStream out;
        private long size;

        Output(String target, RecoverableFsDataOutputStream out, long size) {
            this.target = target;
            this.out = out;
            this.size = size;
        }

        @Override
        public String target() {
            return target;
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

        /** The in-progress file once closed for commit or released; null while open. */
        private Path inProgress;

        private boolean closed;

        @Override
        public byte[] persist() throws IOException {
            ResumeRecoverable r = out.persist();
            held(this); // a snapshot may hold it from now on
            DataOutputSerializer o = header();
            SimpleVersionedSerialization.writeVersionAndSerialize(
                    writer.getResumeRecoverableSerializer(), r, o);
            return o.getCopyOfBuffer();
        }

        @Override
        public byte[] closeForCommit() throws IOException {
            CommitRecoverable r = out.closeForCommit().getRecoverable();
            closed = true;
            inProgress = inProgressFileOf(r);
            DataOutputSerializer o = header();
            SimpleVersionedSerialization.writeVersionAndSerialize(
                    writer.getCommitRecoverableSerializer(), r, o);
            return o.getCopyOfBuffer();
        }

        private DataOutputSerializer header() throws IOException {
            DataOutputSerializer o = new DataOutputSerializer(256);
            o.writeInt(FORMAT);
            o.writeUTF(target);
            o.writeLong(size);
            return o;
        }

        @Override
        public void release() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (isUnheld(this)) {
                    // never persisted: learn its file, so that close() can delete it
                    inProgress = inProgressFileOf(out.persist());
                }
                // closing the stream keeps what persist() made durable (Flink's contract)
                out.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot release shard " + target, e);
            }
        }

        /** Deletes this output's in-progress file: no snapshot holds it. */
        void discard() throws IOException {
            release();
            if (inProgress != null) {
                inProgress.getFileSystem().delete(inProgress, false);
            }
        }
    }
}
