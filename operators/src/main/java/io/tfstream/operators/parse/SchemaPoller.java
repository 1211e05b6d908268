package io.tfstream.operators.parse;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the watched schema file every poll interval on a thread of its own and hands content that
 * differs from the last content seen to the task thread ({@link #take()}); it only reads and
 * hashes: converting and checking the candidate is the task thread's work ({@link LiveSchema}). A
 * file that cannot be read is logged once per distinct error and polled again.
 */
@Internal
public final class SchemaPoller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaPoller.class);

    /** Largest schema file read; a larger one is refused before it is allocated. */
    public static final long MAX_SCHEMA_BYTES = 64L << 20;

    /** A schema file's content that differs from the last one seen, with its SHA-256. */
    public record Candidate(byte[] content, String sha256) {}

    private final Path path;
    private final AtomicReference<Candidate> handed = new AtomicReference<>();
    private volatile String lastSeen;
    private String lastError;
    private ScheduledExecutorService thread;

    /**
     * @param inForce the content in force now: only a different content becomes a candidate
     */
    public SchemaPoller(String path, byte[] inForce) {
        this.path = new Path(Objects.requireNonNull(path, "path"));
        this.lastSeen = sha256(inForce);
    }

    /** Starts polling every {@code intervalMillis}, the first read one interval from now. */
    public void start(long intervalMillis, String threadName) {
        thread =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, threadName);
                            t.setDaemon(true);
                            return t;
                        });
        thread.scheduleWithFixedDelay(
                this::pollOnce, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** One read of the file; a changed content replaces any candidate not yet taken. */
    void pollOnce() {
        try {
            byte[] content = read();
            String sha = sha256(content);
            lastError = null;
            if (!sha.equals(lastSeen)) {
                lastSeen = sha;
                handed.set(new Candidate(content, sha));
            }
        } catch (IOException | RuntimeException e) {
            String error = String.valueOf(e);
            if (!error.equals(lastError)) {
                lastError = error;
                LOG.warn("schema.update: cannot read {}, the schema in force stays", path, e);
            }
        }
    }

    private byte[] read() throws IOException {
        FileSystem fs = path.getFileSystem();
        FileStatus status = fs.getFileStatus(path);
        if (status.getLen() > MAX_SCHEMA_BYTES) {
            throw new IOException(
                    path
                            + " has "
                            + status.getLen()
                            + " bytes, over the "
                            + MAX_SCHEMA_BYTES
                            + " bytes a schema file may have");
        }
        try (InputStream in = fs.open(path)) {
            return in.readNBytes((int) MAX_SCHEMA_BYTES + 1);
        }
    }

    /** The newest candidate not yet taken, or null; called on the task thread. */
    public Candidate take() {
        return handed.getAndSet(null);
    }

    /** The watched file. */
    public String path() {
        return path.toString();
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }

    /** Lowercase hex SHA-256 of {@code content}. */
    public static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
