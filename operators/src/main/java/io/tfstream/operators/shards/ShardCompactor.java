package io.tfstream.operators.shards;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.apache.flink.connector.file.sink.compactor.OutputStreamBasedFileCompactor;
import org.apache.flink.core.fs.Path;

/**
 * Merges a bucket's TFRecord part files into one shard. Uncompressed parts and gzip parts are
 * concatenated byte for byte (TFRecords are self-delimiting; several gzip members are one stream
 * for TensorFlow's reader and for {@code GZIPInputStream}). Zlib parts are recompressed record by
 * record into one stream (both CRCs of every record checked), because TensorFlow's reader stops at
 * the end of the first of several concatenated zlib streams.
 */
final class ShardCompactor extends OutputStreamBasedFileCompactor {
    private static final long serialVersionUID = 1L;
    private static final int COPY_BUFFER = 1 << 20;

    private final Compression compression;
    private final transient ShardBucketWriter owner;

    ShardCompactor(Compression compression, ShardBucketWriter owner) {
        this.compression = Objects.requireNonNull(compression, "compression");
        this.owner = owner;
    }

    @Override
    protected void doCompact(List<Path> inputs, OutputStream out) throws Exception {
        if (owner != null) {
            owner.compacting(inputs);
        }
        if (compression == Compression.ZLIB) {
            recompress(inputs, out);
        } else {
            concatenate(inputs, out);
        }
    }

    private static void concatenate(List<Path> inputs, OutputStream out) throws IOException {
        byte[] buf = new byte[COPY_BUFFER];
        for (Path input : inputs) {
            try (InputStream in = input.getFileSystem().open(input)) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                }
            }
        }
    }

    private void recompress(List<Path> inputs, OutputStream out) throws IOException {
        TfRecordWriter writer =
                TfRecordWriter.builder(out).compression(compression).closeTarget(false).build();
        TfRecordReadOptions options = TfRecordReadOptions.defaults().withCompression(compression);
        for (Path input : inputs) {
            InputStream raw = input.getFileSystem().open(input);
            try (TfRecordReader reader = TfRecordReader.open(raw, input.toString(), options)) {
                while (reader.next()) {
                    writer.write(reader.buffer(), reader.offset(), reader.length());
                }
            }
        }
        writer.finish();
    }
}
