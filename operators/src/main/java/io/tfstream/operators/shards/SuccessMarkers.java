package io.tfstream.operators.shards;

import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardSuccessMarker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;

/**
 * Writes a bucket's {@code _SUCCESS}: lists the bucket's shards by their manifests (every visible
 * shard that has one, of the jobs the request names: other jobs writing to the same path are left
 * out; and of its lineage of histories: see {@link ShardSuccessMarker.Cut}), checks that the shards
 * the marker request names are among them, and writes the marker whole through the file system's
 * recoverable writer, after the bucket's statistics ({@link BucketStatistics}, with {@code
 * shards.statistics}). Writing it again (a commit repeated after a recovery, a late shard) replaces
 * it with the current listing.
 *
 * <p>Manifests are listed in the bucket's metadata directory and its {@code Split-<name>}
 * directories (one marker covers every data split), and, with the separate layout, also beside the
 * shards: a job restored from a savepoint taken before the layout changed has committed some shards
 * of its open buckets with their manifests there.
 */
final class SuccessMarkers {
    /** How long a marker waits for the shards it names to become visible. */
    static final Duration DEFAULT_WAIT = Duration.ofMinutes(2);

    private static final long POLL_MS = 100;

    private final Duration wait;
    private final ShardSettings settings;

    SuccessMarkers(Duration wait, ShardSettings settings) {
        this.wait = wait;
        this.settings = settings;
    }

    /**
     * Writes the marker of {@code m}.
     *
     * @throws IOException when a shard it names is still missing after the wait (the job restarts
     *     and the commit is repeated)
     */
    void write(ShardCommittable.Marker m) throws IOException, InterruptedException {
        Path dir = new Path(settings.metadataDir(m.bucket()));
        FileSystem fs = dir.getFileSystem();
        long deadline = System.nanoTime() + wait.toNanos();
        List<ShardManifest> manifests;
        while (true) {
            manifests = manifests(fs, dir, new Path(m.bucketDir()));
            manifests.removeIf(x -> !ofLineage(x, m));
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
                                + dir
                                + " after "
                                + wait);
            }
            Thread.sleep(POLL_MS);
        }
        ShardSuccessMarker marker =
                ShardSuccessMarker.of(m.bucket(), m.endMs(), m.jobs(), manifests)
                        .withHistories(m.histories());
        if (settings.statistics() != null) {
            marker =
                    marker.withStatistics(
                            new BucketStatistics(settings)
                                    .write(fs, m.bucket(), m.endMs(), manifests));
        }
        writeWhole(new Path(dir, ShardSuccessMarker.FILE_NAME), marker.toJson());
    }

    /**
     * Whether the shard of manifest {@code x} is of the marker's lineage: one of its jobs, and
     * where both the manifest and the request know histories, committed by one of the lineage's
     * histories up to its cut (so not by a predecessor after the snapshot this history was restored
     * from).
     */
    private boolean ofLineage(ShardManifest x, ShardCommittable.Marker m) {
        if (!m.jobs().isEmpty() && !ofJobs(x.shard(), m.jobs())) {
            return false;
        }
        return x.history() == null
                || m.histories().isEmpty()
                || ShardSuccessMarker.inLineage(m.histories(), x.history());
    }

    /** Whether {@code shard} is named by one of {@code jobs}. */
    private boolean ofJobs(String shard, List<String> jobs) {
        return ShardName.parse(shard, settings.prefix())
                .map(n -> jobs.contains(n.jobId()))
                .orElse(false);
    }

    /** The manifests of the bucket's shards: in {@code dir}, its split directories, beside. */
    private List<ShardManifest> manifests(FileSystem fs, Path dir, Path dataDir)
            throws IOException {
        Map<String, ShardManifest> byShard = new TreeMap<>();
        collect(fs, dir, true, byShard);
        if (settings.layout() == ShardLayout.SEPARATE && !dataDir.equals(dir)) {
            collect(fs, dataDir, false, byShard);
        }
        return new ArrayList<>(byShard.values());
    }

    private static void collect(
            FileSystem fs, Path dir, boolean splits, Map<String, ShardManifest> into)
            throws IOException {
        FileStatus[] entries;
        try {
            entries = fs.listStatus(dir);
        } catch (java.io.FileNotFoundException e) {
            return; // nothing committed there yet
        }
        if (entries == null) {
            return;
        }
        for (FileStatus s : entries) {
            String name = s.getPath().getName();
            if (s.isDir()) {
                if (splits && ShardLayout.isSplitDir(name)) {
                    collect(fs, s.getPath(), false, into);
                }
                continue;
            }
            if (!ShardManifest.isManifest(name) || name.startsWith(".")) {
                continue;
            }
            try (InputStream in = fs.open(s.getPath())) {
                ShardManifest m =
                        ShardManifest.fromJson(
                                new String(in.readAllBytes(), StandardCharsets.UTF_8));
                into.putIfAbsent(m.bucket() + "/" + m.shard(), m);
            } catch (java.io.FileNotFoundException e) {
                // deleted while listed: not a shard of this bucket any more
            }
        }
    }

    /**
     * Writes {@code json} and a newline to {@code target}, visible only once whole. A file there is
     * replaced: Hadoop's committer renames without checking the result, and HDFS refuses to rename
     * onto an existing file, so the result is read back and, where the old file stayed, it is
     * deleted and the rename repeated.
     */
    /** The entries of metadata directory {@code dir}; none when it does not exist (yet). */
    static org.apache.flink.core.fs.FileStatus[] listOrNone(Path dir) throws IOException {
        FileSystem fs = dir.getFileSystem();
        try {
            if (!fs.exists(dir)) {
                return new org.apache.flink.core.fs.FileStatus[0];
            }
            org.apache.flink.core.fs.FileStatus[] entries = fs.listStatus(dir);
            return entries == null ? new org.apache.flink.core.fs.FileStatus[0] : entries;
        } catch (java.io.FileNotFoundException e) {
            return new org.apache.flink.core.fs.FileStatus[0];
        }
    }

    static void writeWhole(Path target, String json) throws IOException {
        writeWhole(target, (json + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to {@code target} as {@link #writeWhole(Path, String)} does. */
    static void writeWhole(Path target, byte[] bytes) throws IOException {
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
