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
 */
final class OpenShardJournal {
    static final String DIR = "_open";
    private static final String CHECKPOINT = "checkpoint";
    private static final String TARGET = "target";

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
     * Removes, with {@code store}, what the earlier attempts of job {@code jobId}'s subtask {@code
     * subtask} opened after checkpoint {@code restored} (their in-progress files or uploads), and
     * their entries; returns how many shards that was. An entry it cannot read stays.
     */
    static int discardAfter(
            String basePath, String jobId, int subtask, long restored, ShardStore store)
            throws IOException {
        Path dir = subtaskDir(basePath, jobId, subtask);
        FileSystem fs = dir.getFileSystem();
        int discarded = 0;
        for (FileStatus e : SuccessMarkers.listOrNone(dir)) {
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
