package io.tfstream.operators.shards;

import io.tfstream.shards.ShardEncoder;
import io.tfstream.shards.ShardStats;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * One entry of a shard writer subtask's checkpointed state: its {@link Lineage} (always one per
 * subtask, so that after any redistribution every restored subtask below the old parallelism knows
 * which job and checkpoint it continues, and cleans up after it), or one {@link Open} shard kept
 * open across the checkpoint.
 */
@Internal
public sealed interface ShardWriterState permits ShardWriterState.Lineage, ShardWriterState.Open {

    /**
     * Which job wrote the checkpoint, from which subtask, at which checkpoint, and the next shard
     * counter of that subtask.
     */
    record Lineage(String jobId, int subtask, long checkpointId, long nextCounter)
            implements ShardWriterState {
        public Lineage {
            Objects.requireNonNull(jobId, "jobId");
        }
    }

    /**
     * A shard open across the checkpoint.
     *
     * @param bucket its bucket
     * @param name its file name ({@code ShardName} format)
     * @param bucketEnd when its bucket ends (event time; {@link Long#MAX_VALUE}: not by the
     *     watermark)
     * @param persisted the store's bytes to resume it from
     * @param encoder the encoder's state at the same point
     * @param stats what its records are so far
     * @param openedAt processing time it was opened (its age counts across restores)
     * @param segments checkpoints it was persisted across so far, plus one
     * @param schemaFingerprint the schema that accepted its records, or null: the job's configured
     *     one
     * @param features TFDV's statistics of its records so far ({@link ShardFeatureStatistics}
     *     bytes), or null: none kept
     */
    record Open(
            String bucket,
            String name,
            long bucketEnd,
            byte[] persisted,
            ShardEncoder.State encoder,
            ShardStats stats,
            long openedAt,
            int segments,
            String schemaFingerprint,
            byte[] features)
            implements ShardWriterState {

        /** An open shard of the job's configured schema. */
        public Open(
                String bucket,
                String name,
                long bucketEnd,
                byte[] persisted,
                ShardEncoder.State encoder,
                ShardStats stats,
                long openedAt,
                int segments) {
            this(
                    bucket, name, bucketEnd, persisted, encoder, stats, openedAt, segments, null,
                    null);
        }

        public Open {
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(persisted, "persisted");
            Objects.requireNonNull(encoder, "encoder");
            Objects.requireNonNull(stats, "stats");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Open s
                    && bucket.equals(s.bucket)
                    && name.equals(s.name)
                    && bucketEnd == s.bucketEnd
                    && java.util.Arrays.equals(persisted, s.persisted)
                    && encoder.equals(s.encoder)
                    && stats.equals(s.stats)
                    && openedAt == s.openedAt
                    && segments == s.segments
                    && Objects.equals(schemaFingerprint, s.schemaFingerprint)
                    && java.util.Arrays.equals(features, s.features);
        }

        @Override
        public int hashCode() {
            return Objects.hash(bucket, name, java.util.Arrays.hashCode(persisted), encoder);
        }

        @Override
        public String toString() {
            return "Open{" + bucket + "/" + name + ", " + stats + "}";
        }
    }
}
