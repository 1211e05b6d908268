package io.tfstream.operators.shards;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.shards.store.LostShardException;
import io.tfstream.operators.shards.store.ShardOutput;
import io.tfstream.operators.shards.store.ShardStore;
import io.tfstream.shards.ShardEncoder;
import io.tfstream.shards.ShardStats;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFraming;
import java.io.IOException;

/**
 * One shard open on a writer subtask: records are encoded ({@link ShardEncoder}) straight into the
 * store's {@link ShardOutput}, each byte written once; {@link #persist} makes it resumable at a
 * checkpoint, {@link #close} finishes it for commit. With {@code shards.statistics} it also keeps
 * TFDV's statistics of its records ({@link ShardFeatureStatistics}), which its state and
 * committable carry. Not thread-safe.
 */
final class OpenShard {
    final String bucket;
    final String name;
    final long bucketEnd;
    final long openedAt;
    final String schemaFingerprint;
    private final boolean compressed;
    private final ShardOutput output;
    private final ShardEncoder encoder;
    private final ShardStats stats;
    private final ShardFeatureStatistics featureSettings;

    /** TFDV's statistics of its records, or null: not kept (off, or not from its first record). */
    private final ExampleStatistics features;

    private int segments;
    private long framedBytes; // uncompressed shards: stored bytes, including those still buffered

    /** The statistics' bytes the last checkpoint held (they grow with the records' values). */
    private long featureCheckpointBytes;

    private OpenShard(
            String bucket,
            String name,
            long bucketEnd,
            long openedAt,
            ShardOutput output,
            ShardEncoder encoder,
            ShardStats stats,
            int segments,
            Compression compression,
            String schemaFingerprint,
            ShardFeatureStatistics featureSettings,
            ExampleStatistics features) {
        this.bucket = bucket;
        this.featureSettings = featureSettings;
        this.features = features;
        this.schemaFingerprint = schemaFingerprint;
        this.name = name;
        this.bucketEnd = bucketEnd;
        this.openedAt = openedAt;
        this.compressed = compression != Compression.NONE;
        this.output = output;
        this.encoder = encoder;
        this.stats = stats;
        this.segments = segments;
        this.framedBytes = encoder.bytesOut();
    }

    /**
     * A new shard {@code name} in {@code bucket} for records of schema {@code schemaFingerprint}
     * (null: the job's configured one).
     */
    static OpenShard open(
            ShardStore store,
            ShardSettings settings,
            String bucket,
            String name,
            long bucketEnd,
            long now,
            String schemaFingerprint)
            throws IOException {
        ShardOutput out = store.open(settings.bucketDir(bucket) + "/" + name);
        ShardEncoder enc =
                ShardEncoder.start(settings.compression(), settings.compressionLevel(), out::write);
        return new OpenShard(
                bucket,
                name,
                bucketEnd,
                now,
                out,
                enc,
                new ShardStats(),
                1,
                settings.compression(),
                schemaFingerprint,
                settings.statistics(),
                settings.statistics() == null ? null : settings.statistics().empty());
    }

    /**
     * The shard {@code s} continued from a checkpoint, or null when the store lost its bytes and
     * {@code lost} drops it. Where the store copies it ({@link ShardStore#resume}), it goes on as
     * {@code copyName}, so that no other writer restored from the same snapshot shares its file.
     */
    static OpenShard resume(
            ShardStore store,
            ShardSettings settings,
            ShardWriterState.Open s,
            String copyName,
            LostShards lost)
            throws IOException {
        ShardOutput out;
        String copyTarget = settings.bucketDir(s.bucket()) + "/" + copyName;
        try {
            out = store.resume(s.persisted(), copyTarget);
        } catch (LostShardException e) {
            lost.lost(e, s.stats());
            return null;
        }
        if (out.size() != s.encoder().bytesOut()) {
            throw new IOException(
                    "shard "
                            + s.name()
                            + " resumed at "
                            + out.size()
                            + " bytes, but its encoder state is at "
                            + s.encoder().bytesOut());
        }
        ShardFeatureStatistics featureSettings = settings.statistics();
        // Statistics kept with other settings, or none at all (an earlier version, or statistics
        // turned on at this restore): none; the bucket's writer reads the shard back instead.
        ExampleStatistics features =
                featureSettings == null || s.features() == null
                        ? null
                        : featureSettings.fromBytes(s.features());
        OpenShard shard =
                new OpenShard(
                        s.bucket(),
                        out.target().equals(copyTarget) ? copyName : s.name(),
                        s.bucketEnd(),
                        s.openedAt(),
                        out,
                        ShardEncoder.resume(s.encoder(), out::write),
                        s.stats(),
                        s.segments(),
                        s.encoder().compression(),
                        s.schemaFingerprint(),
                        featureSettings,
                        features);
        shard.featureCheckpointBytes = features == null ? 0 : s.features().length;
        return shard;
    }

    /**
     * Whether a record of {@code length} bytes surely fits the store's limits (S3: its parts left),
     * with room for its framing, the encoder's buffers and deflate's worst-case growth.
     */
    boolean hasRoomFor(int length) {
        long worst = length + (length >> 6) + TfRecordFraming.HEADER_SIZE + (1 << 20);
        return output.room() > worst;
    }

    /**
     * Bytes of its data the next checkpoint would hold ({@code shards.checkpoint-budget}), with the
     * framed records the encoder still holds (compressed shards: without its buffers), and the size
     * of its statistics at the last checkpoint ({@code shards.statistics}).
     */
    long checkpointBytes() {
        return output.checkpointBytes(compressed ? 0 : framedBytes - output.size())
                + featureCheckpointBytes;
    }

    void write(SourceRecord r, long eventTime) throws IOException {
        byte[] v = r.value();
        encoder.write(v, 0, v.length);
        framedBytes += v.length + TfRecordFraming.HEADER_SIZE + TfRecordFraming.FOOTER_SIZE;
        stats.add(r.topic(), r.partition(), r.offset(), v.length, eventTime);
        if (features != null) {
            featureSettings.add(features, v);
        }
    }

    /**
     * Bytes as stored so far: exact for uncompressed shards; for compressed ones what the
     * compressor has given out (it holds back up to its buffers' size).
     */
    long storedBytes() {
        return compressed ? encoder.bytesOut() : framedBytes;
    }

    /** Ends the current segment and makes everything durable; the shard stays open. */
    ShardWriterState.Open persist() throws IOException {
        ShardEncoder.State s = encoder.endSegment();
        byte[] persisted = output.persist();
        segments++; // what follows the checkpoint is a new segment, also after a restore
        byte[] featureBytes = featureBytes();
        featureCheckpointBytes = featureBytes == null ? 0 : featureBytes.length;
        return new ShardWriterState.Open(
                bucket,
                name,
                bucketEnd,
                persisted,
                s,
                copy(stats),
                openedAt,
                segments,
                schemaFingerprint,
                featureBytes);
    }

    private byte[] featureBytes() throws IOException {
        return features == null ? null : featureSettings.toBytes(features);
    }

    /** Finishes the shard; nothing is visible before its commit. */
    ShardCommittable.Shard close() throws IOException {
        ShardEncoder.State s = encoder.finish();
        byte[] closed = output.closeForCommit();
        return new ShardCommittable.Shard(
                bucket,
                name,
                closed,
                stats,
                Integer.toUnsignedLong(s.crc32c()),
                s.bytesOut(),
                segments,
                schemaFingerprint,
                featureBytes(),
                null, // the writer stages them (ShardWriter#finish)
                null); // the marker coordinator stamps the history
    }

    /** Frees buffers and streams; what a checkpoint holds stays as it is. */
    void release() {
        encoder.release();
        output.release();
    }

    private static ShardStats copy(ShardStats s) {
        ShardStats c = new ShardStats();
        c.merge(s);
        return c;
    }
}
