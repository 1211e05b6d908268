package io.tfstream.operators.shards;

import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardSuccessMarker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;

/**
 * Writes a bucket's {@code _SUCCESS}: lists the bucket's shards by their manifests (every visible
 * shard that has one), checks that the shards the marker request names are among them, and writes
 * the marker whole through the file system's recoverable writer. Writing it again (a commit
 * repeated after a recovery, a late shard) replaces it with the current listing.
 */
final class SuccessMarkers {
    /** How long a marker waits for the shards it names to become visible. */
    static final Duration DEFAULT_WAIT = Duration.ofMinutes(2);

    private static final long POLL_MS = 100;

    private final Duration wait;

    SuccessMarkers(Duration wait) {
        this.wait = wait;
    }

    /**
     * Writes the marker of {@code m}.
     *
     * @throws IOException when a shard it names is still missing after the wait (the job restarts
     *     and the commit is repeated)
     */
    void write(ShardCommittable.Marker m) throws IOException, InterruptedException {
        Path dir = new Path(m.bucketDir());
        FileSystem fs = dir.getFileSystem();
        long deadline = System.nanoTime() + wait.toNanos();
        List<ShardManifest> manifests;
        while (true) {
            manifests = manifests(fs, dir);
            Set<String> listed = new HashSet<>();
            manifests.forEach(x -> listed.add(x.shard()));
            List<String> missing = new ArrayList<>(m.shards());
            missing.removeAll(listed);
            if (missing.isEmpty()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(
                        "cannot write the _SUCCESS marker of bucket "
                                + m.bucket()
                                + ": shards "
                                + missing
                                + " (or their manifests) are not in "
                                + m.bucketDir()
                                + " after "
                                + wait);
            }
            Thread.sleep(POLL_MS);
        }
        ShardSuccessMarker marker = ShardSuccessMarker.of(m.bucket(), m.endMs(), manifests);
        writeWhole(new Path(dir, ShardSuccessMarker.FILE_NAME), marker.toJson());
    }

    private static List<ShardManifest> manifests(FileSystem fs, Path dir) throws IOException {
        List<ShardManifest> manifests = new ArrayList<>();
        FileStatus[] entries = fs.listStatus(dir);
        if (entries == null) {
            return manifests;
        }
        for (FileStatus s : entries) {
            String name = s.getPath().getName();
            if (s.isDir() || !ShardManifest.isManifest(name) || name.startsWith(".")) {
                continue;
            }
            try (InputStream in = fs.open(s.getPath())) {
                manifests.add(
                        ShardManifest.fromJson(
                                new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            } catch (java.io.FileNotFoundException e) {
                // deleted while listed: not a shard of this bucket any more
            }
        }
        return manifests;
    }

    /** Writes {@code json} and a newline to {@code target}, visible only once whole. */
    static void writeWhole(Path target, String json) throws IOException {
        RecoverableFsDataOutputStream out =
                target.getFileSystem().createRecoverableWriter().open(target);
        out.write((json + "\n").getBytes(StandardCharsets.UTF_8));
        out.closeForCommit().commit();
    }
}
