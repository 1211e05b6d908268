package io.tfstream.operators.shards;

import io.tfstream.shards.ShardLayout;
import java.io.IOException;
import java.time.Instant;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

/**
 * A note per savepoint a job took that may hold open shards ({@code
 * _tfstream/_savepoints/_<jobId>-<checkpointId>} under the base path), written by the marker
 * coordinator while it snapshots the savepoint. A failover forgets the savepoints taken after the
 * checkpoint it restores, and the sink is never told when a savepoint is deleted, so the notes are
 * what keeps the sink from removing an in-progress file a savepoint of its job may name: the copies
 * a failover superseded are removed only for jobs without a note. A drained stop's savepoint holds
 * no open shard and gets none. {@code tfstream shards uploads} removes the rest once the savepoints
 * are gone.
 */
final class SavepointNotes {
    static final String DIR = "_savepoints";

    private SavepointNotes() {}

    static Path dir(String basePath) {
        return new Path(ShardLayout.SEPARATE.metadataDir(basePath, "") + "/" + DIR);
    }

    private static Path note(String basePath, String jobId, long checkpointId) {
        return new Path(dir(basePath), "_" + jobId + "-" + checkpointId);
    }

    /** Notes that job {@code jobId} took savepoint {@code checkpointId}. */
    static void write(String basePath, String jobId, long checkpointId) throws IOException {
        SuccessMarkers.writeWhole(
                note(basePath, jobId, checkpointId),
                "{\"job\":\""
                        + jobId
                        + "\",\"checkpoint\":"
                        + checkpointId
                        + ",\"noted\":\""
                        + Instant.now()
                        + "\"}");
    }

    /** Whether job {@code jobId} noted savepoint {@code checkpointId}. */
    static boolean noted(String basePath, String jobId, long checkpointId) throws IOException {
        Path note = note(basePath, jobId, checkpointId);
        return note.getFileSystem().exists(note);
    }

    /** Whether job {@code jobId} has taken a savepoint that may hold open shards. */
    static boolean any(String basePath, String jobId) throws IOException {
        FileStatus[] notes = SuccessMarkers.listOrNone(dir(basePath));
        String prefix = "_" + jobId + "-";
        for (FileStatus n : notes) {
            if (n.getPath().getName().startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
