package io.tfstream.operators.shards;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.tfrecord.Compression;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.sink.compactor.ConcatFileCompactor;
import org.apache.flink.connector.file.sink.compactor.FileCompactStrategy;
import org.apache.flink.connector.file.sink.compactor.FileCompactor;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;

/**
 * The TFRecord shard sink: Flink's {@code FileSink} with the {@link TfRecordBulkWriter} bulk
 * format, event-time buckets, and compaction.
 *
 * <p>Design: a bulk format must close its part file at every checkpoint (that is what makes a gzip
 * or zlib stream complete and what keeps the S3 recoverable writer from leaving {@code _tmp_}
 * objects: it only writes them when an open file is persisted across a checkpoint). Part files are
 * therefore written hidden ({@code .<prefix>-...}) and FileSink compaction merges them into the
 * finished shard once a bucket's parts reach {@code targetSize} or after {@code
 * compactEveryCheckpoints} checkpoints, whichever comes first; the hidden parts are deleted when
 * the shard is committed. Uncompressed parts and gzip parts are concatenated byte for byte (several
 * gzip members are one stream for TensorFlow's reader and for {@code GZIPInputStream}); zlib parts
 * are recompressed record by record ({@link RecompressingCompactor}), because TensorFlow's reader
 * ends at the first zlib stream. Flink names the finished file after its first part: {@code
 * compacted-<prefix>-<uuid>-<n><suffix>}.
 */
public final class ShardSinks {
    private ShardSinks() {}

    /** The shard sink with its metrics ({@link MeteredShardSink}). */
    public static MeteredShardSink create(ShardSettings s) {
        return new MeteredShardSink(fileSink(s));
    }

    /** The bare FileSink of {@code s}. */
    public static FileSink<SourceRecord> fileSink(ShardSettings s) {
        return FileSink.forBulkFormat(
                        new Path(s.basePath()), new TfRecordBulkWriter.Factory(s.compression()))
                .withBucketAssigner(
                        new EventTimeBucketAssigner(s.bucketPattern(), s.zone(), s.maxBucketSkew()))
                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                .withOutputFileConfig(
                        OutputFileConfig.builder()
                                .withPartPrefix(s.prefix())
                                .withPartSuffix(s.suffix())
                                .build())
                .enableCompact(
                        FileCompactStrategy.Builder.newBuilder()
                                .setSizeThreshold(s.targetSize())
                                .enableCompactionOnCheckpoint(s.compactEveryCheckpoints())
                                .build(),
                        compactor(s.compression()))
                .build();
    }

    /** The compactor for shards of compression {@code c}. */
    public static FileCompactor compactor(Compression c) {
        return c == Compression.ZLIB ? new RecompressingCompactor(c) : new ConcatFileCompactor();
    }
}
