package io.tfstream.operators.shards;

import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardStats;
import io.tfstream.shards.ShardSuccessMarker;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What the shard sink commits after a checkpoint: a closed {@link Shard}, a bucket's {@link Marker}
 * request (its {@code _SUCCESS}, written after the shards committed with it), or a {@link Retire}:
 * the in-progress file a failover's copy superseded. All travel through checkpointed state, so a
 * commit repeated after a recovery writes the same shard, manifest and marker.
 */
@Internal
public sealed interface ShardCommittable
        permits ShardCommittable.Shard, ShardCommittable.Marker, ShardCommittable.Retire {

    /** The bucket the committable belongs to; committables of a bucket share one committer. */
    String bucket();

    /**
     * A closed shard.
     *
     * @param bucket its bucket (directory relative to the base path)
     * @param name its file name
     * @param closed the store's closed-shard bytes ({@code ShardOutput#closeForCommit()})
     * @param stats what its records are
     * @param crc32c CRC32C of the file as stored
     * @param fileBytes size of the file as stored
     * @param segments checkpoints the shard was persisted across, plus one
     * @param schemaFingerprint the schema that accepted its records, or null: the job's configured
     *     one
     * @param features TFDV's statistics of its records ({@link ShardFeatureStatistics} bytes)
     *     carried inline, as committables of versions 6 and 7 did; null: none, or staged
     * @param featuresFile where the writer staged those statistics ({@link
     *     OpenShardJournal#stageStatistics}), so that sketches never pass the marker coordinator,
     *     which runs at parallelism 1; null: none staged
     * @param history the history that commits it and with which checkpoint, set by the marker
     *     coordinator; null from the writer and in committables of earlier versions
     */
    record Shard(
            String bucket,
            String name,
            byte[] closed,
            ShardStats stats,
            long crc32c,
            long fileBytes,
            int segments,
            String schemaFingerprint,
            byte[] features,
            String featuresFile,
            ShardManifest.History history)
            implements ShardCommittable {

        /** A shard of the job's configured schema. */
        public Shard(
                String bucket,
                String name,
                byte[] closed,
                ShardStats stats,
                long crc32c,
                long fileBytes,
                int segments) {
            this(bucket, name, closed, stats, crc32c, fileBytes, segments, null, null, null, null);
        }

        /** This shard with its statistics staged at {@code file} instead of carried inline. */
        public Shard withFeaturesFile(String file) {
            return with(null, file, history);
        }

        /** This shard, committed by {@code history}. */
        public Shard withHistory(ShardManifest.History history) {
            return with(features, featuresFile, history);
        }

        private Shard with(byte[] inline, String file, ShardManifest.History committedBy) {
            return new Shard(
                    bucket,
                    name,
                    closed,
                    stats,
                    crc32c,
                    fileBytes,
                    segments,
                    schemaFingerprint,
                    inline,
                    file,
                    committedBy);
        }

        public Shard {
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(closed, "closed");
            Objects.requireNonNull(stats, "stats");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Shard s
                    && bucket.equals(s.bucket)
                    && name.equals(s.name)
                    && java.util.Arrays.equals(closed, s.closed)
                    && stats.equals(s.stats)
                    && crc32c == s.crc32c
                    && fileBytes == s.fileBytes
                    && segments == s.segments
                    && Objects.equals(schemaFingerprint, s.schemaFingerprint)
                    && java.util.Arrays.equals(features, s.features)
                    && Objects.equals(featuresFile, s.featuresFile)
                    && Objects.equals(history, s.history);
        }

        @Override
        public int hashCode() {
            return Objects.hash(bucket, name, java.util.Arrays.hashCode(closed), crc32c, fileBytes);
        }

        @Override
        public String toString() {
            return "Shard{" + bucket + "/" + name + ", " + stats + "}";
        }
    }

    /**
     * A request to write bucket {@code bucket}'s {@code _SUCCESS} in {@code bucketDir}, listing the
     * bucket's shards of the jobs {@code jobs} (this job's history; empty: every shard, as requests
     * of earlier versions did) and, of shards whose manifests name their history, only those of the
     * lineage {@code histories} (empty in requests of earlier versions); {@code shards} are the
     * ones it must find (committed before it).
     */
    record Marker(
            String bucketDir,
            String bucket,
            long endMs,
            List<String> shards,
            List<String> jobs,
            List<ShardSuccessMarker.Cut> histories)
            implements ShardCommittable {
        public Marker {
            Objects.requireNonNull(bucketDir, "bucketDir");
            Objects.requireNonNull(bucket, "bucket");
            shards = List.copyOf(shards);
            jobs = List.copyOf(jobs);
            histories = List.copyOf(histories);
        }

        /** A request that lists by job ids only, as those of earlier versions did. */
        public Marker(
                String bucketDir,
                String bucket,
                long endMs,
                List<String> shards,
                List<String> jobs) {
            this(bucketDir, bucket, endMs, shards, jobs, List.of());
        }

        /** This request without the shards {@code dropped} (lost shards). */
        Marker without(java.util.Collection<String> dropped) {
            List<String> kept = new java.util.ArrayList<>(shards);
            kept.removeAll(dropped);
            return new Marker(bucketDir, bucket, endMs, kept, jobs, histories);
        }
    }

    /**
     * The in-progress file of shard {@code name} that a writer restored by a failover (from
     * checkpoint {@code restoredCheckpoint} of job {@code jobId}) copied into a shard of its own:
     * removed once no retained checkpoint can refer to it ({@link ShardMarkerCoordinator} holds it
     * until then) and no savepoint of the job may ({@link SavepointNotes}).
     *
     * @param persisted the store's resume bytes of the superseded file, as the checkpoint held them
     */
    record Retire(
            String bucket, String name, byte[] persisted, long restoredCheckpoint, String jobId)
            implements ShardCommittable {
        public Retire {
            Objects.requireNonNull(persisted, "persisted");
            Objects.requireNonNull(jobId, "jobId");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Retire r
                    && java.util.Arrays.equals(persisted, r.persisted)
                    && List.of(bucket, name, restoredCheckpoint, jobId)
                            .equals(List.of(r.bucket, r.name, r.restoredCheckpoint, r.jobId));
        }

        @Override
        public int hashCode() {
            return Objects.hash(bucket, name, restoredCheckpoint, jobId);
        }

        @Override
        public String toString() {
            return "Retire{"
                    + bucket
                    + "/"
                    + name
                    + " after checkpoint "
                    + restoredCheckpoint
                    + "}";
        }
    }
}
