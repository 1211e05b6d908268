package io.tfstream.job.runs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

/**
 * The local file system under the scheme {@code gated://}, whose reads can be held at a byte
 * position of every file until the test releases them: a bounded job reading through it cannot
 * finish while held, so a TaskManager kill lands mid-file every time instead of racing the job's
 * end. Registered for the tests by {@code META-INF/services}.
 */
final class GatedFiles {
    static final String SCHEME = "gated";

    /** How long a held read waits at most: a test that forgets to release fails, not hangs. */
    private static final long MAX_HOLD_NANOS = Duration.ofMinutes(3).toNanos();

    private static final Object LOCK = new Object();
    private static long holdAt = Long.MAX_VALUE;
    private static int waiting;

    private GatedFiles() {}

    /** {@code file} (an absolute local path) as a gated URI. */
    static String uri(java.nio.file.Path file) {
        return SCHEME + "://" + file.toAbsolutePath().toUri().getPath();
    }

    /** From now on, every stream stops before byte {@code position} of its file. */
    static void holdReadsAt(long position) {
        synchronized (LOCK) {
            holdAt = position;
        }
    }

    /** How many reads wait at the hold now. */
    static int waiting() {
        synchronized (LOCK) {
            return waiting;
        }
    }

    /** Held and future reads go on to the files' ends. */
    static void release() {
        synchronized (LOCK) {
            holdAt = Long.MAX_VALUE;
            LOCK.notifyAll();
        }
    }

    /** How many bytes a stream at {@code pos} may read of {@code wanted}, after any hold. */
    private static int allowed(long pos, int wanted) throws IOException {
        synchronized (LOCK) {
            long deadline = System.nanoTime() + MAX_HOLD_NANOS;
            while (pos >= holdAt) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("a read was held for 3 minutes and never released");
                }
                waiting++;
                try {
                    LOCK.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("a held read was interrupted");
                } finally {
                    waiting--;
                }
            }
            return (int) Math.min(wanted, holdAt - pos);
        }
    }

    /** The Flink file system factory of the scheme. */
    public static final class Factory implements FileSystemFactory {
        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileSystem create(URI fsUri) {
            return new Gated();
        }
    }

    /**
     * The local file system under the gated scheme (its file statuses take their paths' scheme from
     * {@link #getUri()}), its streams held.
     */
    private static final class Gated extends LocalFileSystem {
        @Override
        public URI getUri() {
            return URI.create(SCHEME + ":///");
        }

        @Override
        public FSDataInputStream open(Path f) throws IOException {
            return new HeldStream(super.open(f));
        }
    }

    /** A local stream whose reads wait at the hold position. */
    private static final class HeldStream extends FSDataInputStream {
        private final FSDataInputStream in;

        HeldStream(FSDataInputStream in) {
            this.in = in;
        }

        @Override
        public void seek(long desired) throws IOException {
            in.seek(desired);
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public int read() throws IOException {
            allowed(in.getPos(), 1);
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            return in.read(b, off, allowed(in.getPos(), len));
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
