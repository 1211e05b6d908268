package io.tfstream.operators.shards;

import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.operators.shards.store.ShardStore;
import io.tfstream.shards.ShardLayout;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * An entry per shard a writer opens, written before the store holds any of its bytes and removed
 * once it is committed: {@code _tfstream/_open/<jobId>/<subtask>/_<shard>.open} under the base path
 * (a name no glob for shards matches), holding the shard's target and the last checkpoint whose
 * barrier the writer had passed.
 *
 * <p>What an attempt opened after the checkpoint a failover restores is in no completed checkpoint
 * (a failover restores the latest), and only a savepoint taken after that checkpoint could hold it,
 * which a {@link SavepointNotes note} tells. So a failover's writer, where its job has no note,
 * removes what its subtask's earlier attempts opened after the restored checkpoint, named by these
 * entries, and a drained job leaves no in-progress file or upload behind however often it failed
 * over. Without the entries those names are unknown: random runs of writers that died.
 *
 * <p>With {@code shards.statistics}, a finished shard's statistics are staged beside its entry
 * ({@code _<shard>.<checkpoint>.<token>.stats}) and its committable names the file: the sketches
 * then pass neither the marker coordinator (parallelism 1) nor the committers' state. The committer
 * removes the file once the shard's manifest is written; a failover removes those staged after the
 * restored checkpoint (no checkpoint holds their committables), as it does entries.
 */
final class OpenShardJournal {
    static final String DIR = "_open";
    private static final String CHECKPOINT = "checkpoint";
    private static final String TARGET = "target";
    private static final String STAGED = ".stats";

    private OpenShardJournal() {}

    private static Path subtaskDir(String basePath, String jobId, int subtask) {
        return new Path(
                ShardLayout.SEPARATE.metadataDir(basePath, "")
                        + "/"
                        + DIR
                        + "/"
                        + jobId
                        + "/"
                        + subtask);
    }

    /**
     * Notes that the writer of job {@code jobId}, subtask {@code subtask}, opens shard {@code name}
     * at {@code target} after the barrier of checkpoint {@code afterCheckpoint}.
     */
    static void opened(
            String basePath,
            String jobId,
            int subtask,
            String name,
            String target,
            long afterCheckpoint)
            throws IOException {
        Path entry = new Path(subtaskDir(basePath, jobId, subtask), entryName(name));
        byte[] text =
                (CHECKPOINT + "=" + afterCheckpoint + "\n" + TARGET + "=" + target + "\n")
                        .getBytes(StandardCharsets.UTF_8);
        try (OutputStream out =
                entry.getFileSystem().create(entry, FileSystem.WriteMode.OVERWRITE)) {
            out.write(text);
        }
    }

    private static String entryName(String shard) {
        return "_" + shard + ".open";
    }

    /** Removes the entry of committed shard {@code name}; none there is fine. */
    static void committed(String basePath, ShardName name) throws IOException {
        Path entry =
                new Path(
                        subtaskDir(basePath, name.jobId(), name.subtask()),
                        entryName(name.format()));
        entry.getFileSystem().delete(entry, false);
    }

    /**
     * Writes the statistics {@code bytes} of shard {@code name}, finished by the writer of job
     * {@code jobId}, subtask {@code subtask}, after the barrier of checkpoint {@code
     * afterCheckpoint}, to a file of this attempt's own (a stalled attempt that comes back writes
     * another) and returns its path.
     */
    static String stageStatistics(
            String basePath,
            String jobId,
            int subtask,
            String name,
            long afterCheckpoint,
            byte[] bytes)
            throws IOException {
        String token =
                Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
        Path file =
                new Path(
                        subtaskDir(basePath, jobId, subtask),
                        "_" + name + "." + afterCheckpoint + "." + token + STAGED);
        SuccessMarkers.writeWhole(file, bytes);
        return file.toString();
    }

    /**
     * The statistics staged at {@code file}, or empty when it is gone (a commit repeated after the
     * first one removed it); at most {@code max} bytes, checked before reading.
     */
    static Optional<byte[]> readStaged(String file, int max) throws IOException {
        Path p = new Path(file);
        FileSystem fs = p.getFileSystem();
        long length;
        try {
            length = fs.getFileStatus(p).getLen();
        } catch (FileNotFoundException gone) {
            return Optional.empty();
        }
        if (length > max) {
            throw new IOException(
                    "staged statistics " + file + " hold " + length + " bytes, more than " + max);
        }
        byte[] bytes;
        try (InputStream in = fs.open(p)) {
            bytes = in.readNBytes((int) length); // never more than the checked length
        } catch (FileNotFoundException gone) {
            return Optional.empty();
        }
        if (bytes.length != length) {
            throw new IOException("staged statistics " + file + " ended early");
        }
        return Optional.of(bytes);
    }

    /** Removes staged statistics {@code file}; none there is fine. */
    static void removeStaged(String file) throws IOException {
        Path p = new Path(file);
        p.getFileSystem().delete(p, false);
    }

    /**
     * The checkpoint after whose barrier the statistics file {@code fileName} was staged, or -1
     * when the name is not one of {@link #stageStatistics}.
     */
    static long stagedAfter(String fileName) {
        if (!fileName.endsWith(STAGED)) {
            return -1;
        }
        String[] parts = fileName.substring(0, fileName.length() - STAGED.length()).split("\\.");
        if (parts.length < 3) {
            return -1;
        }
        try {
            return Long.parseLong(parts[parts.length - 2]);
        } catch (NumberFormatException bad) {
            return -1;
        }
    }

    /**
     * Removes, with {@code store}, what the earlier attempts of job {@code jobId}'s subtask {@code
     * subtask} opened after checkpoint {@code restored} (their in-progress files or uploads), and
     * their entries, and the statistics they staged after it; returns how many shards were
     * discarded. An entry it cannot read stays.
     */
    static int discardAfter(
            String basePath, String jobId, int subtask, long restored, ShardStore store)
            throws IOException {
        Path dir = subtaskDir(basePath, jobId, subtask);
        FileSystem fs = dir.getFileSystem();
        int discarded = 0;
        for (FileStatus e : SuccessMarkers.listOrNone(dir)) {
            if (e.getPath().getName().endsWith(STAGED)) {
                // staged at or after the restored checkpoint: its committable is in no checkpoint
                if (stagedAfter(e.getPath().getName()) >= restored) {
                    fs.delete(e.getPath(), false);
                }
                continue;
            }
            Optional<Properties> read = read(fs, e.getPath());
            if (read.isEmpty()) {
                continue;
            }
            long after;
            try {
                after = Long.parseLong(read.get().getProperty(CHECKPOINT, ""));
            } catch (NumberFormatException bad) {
                continue;
            }
            String target = read.get().getProperty(TARGET);
            if (after < restored || target == null) {
                continue; // in the restored checkpoint, pending or committed: not a leftover
            }
            store.discardStale(target);
            fs.delete(e.getPath(), false);
            discarded++;
        }
        return discarded;
    }

    private static Optional<Properties> read(FileSystem fs, Path entry) throws IOException {
        Properties p = new Properties();
        try (InputStream in = fs.open(entry)) {
            p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (FileNotFoundException gone) {
            return Optional.empty();
        } catch (IllegalArgumentException unreadable) {
            return Optional.empty();
        }
        return Optional.of(p);
    }
}
