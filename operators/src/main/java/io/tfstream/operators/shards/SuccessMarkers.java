package io.tfstream.operators.shards;

import io.tfstream.operators.shards.store.ShardName;
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
 * shard that has one, of the jobs the request names: other jobs writing to the same path are left
 * out), checks that the shards the marker request names are among them, and writes the marker whole
 * through the file system's recoverable writer. Writing it again (a commit repeated after a
 * recovery, a late shard) replaces it with the current listing.
 */
final class SuccessMarkers {
    /** How long a marker waits for the shards it names to become visible. */
    static final Duration DEFAULT_WAIT = Duration.ofMinutes(2);

    private static final long POLL_MS = 100;

    private final Duration wait;
    private final String namePrefix;

    SuccessMarkers(Duration wait, String namePrefix) {
        this.wait = wait;
        this.namePrefix = namePrefix;
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
            if (!m.jobs().isEmpty()) {
                manifests.removeIf(x -> !ofJobs(x.shard(), m.jobs()));
            }
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
        ShardSuccessMarker marker =
                ShardSuccessMarker.of(m.bucket(), m.endMs(), m.jobs(), manifests);
        writeWhole(new Path(dir, ShardSuccessMarker.FILE_NAME), marker.toJson());
    }

    /** Whether {@code shard} is named by one of {@code jobs}. */
    private boolean ofJobs(String shard, List<String> jobs) {
        return ShardName.parse(shard, namePrefix).map(n -> jobs.contains(n.jobId())).orElse(false);
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

    /**
     * Writes {@code json} and a newline to {@code target}, visible only once whole. A file there is
     * replaced: Hadoop's committer renames without checking the result, and HDFS refuses to rename
     * onto an existing file, so the result is read back and, where the old file stayed, it is
     * deleted and the rename repeated.
     */
    static void writeWhole(Path target, String json) throws IOException {
        byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
        FileSystem fs = target.getFileSystem();
        boolean existed = fs.exists(target);
        RecoverableFsDataOutputStream out = fs.createRecoverableWriter().open(target);
        out.write(bytes);
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
        committer.commit();
        if (existed && !holds(fs, target, bytes)) {
            fs.delete(target, false);
            committer.commit();
            if (!holds(fs, target, bytes)) {
                throw new IOException("cannot replace " + target + ": the rename did not take");
            }
        }
    }

    private static boolean holds(FileSystem fs, Path target, byte[] bytes) throws IOException {
        try (InputStream in = fs.open(target)) {
            return java.util.Arrays.equals(in.readNBytes(bytes.length + 1), bytes);
        }
    }
}
