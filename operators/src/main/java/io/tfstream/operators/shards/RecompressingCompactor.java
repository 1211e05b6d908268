package io.tfstream.operators.shards;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.apache.flink.connector.file.sink.compactor.OutputStreamBasedFileCompactor;
import org.apache.flink.core.fs.Path;

/**
 * Compacts TFRecord part files record by record into one compressed stream: every record of every
 * input (both CRCs checked) is written again through one compressor. Used for zlib, where
 * TensorFlow's reader stops at the end of the first of several concatenated zlib streams, so byte
 * concatenation (fine for uncompressed files and for gzip members) would lose records.
 */
public final class RecompressingCompactor extends OutputStreamBasedFileCompactor {
    private static final long serialVersionUID = 1L;

    private final Compression compression;

    public RecompressingCompactor(Compression compression) {
        this.compression = Objects.requireNonNull(compression, "compression");
    }

    @Override
    protected void doCompact(List<Path> inputFiles, OutputStream out) throws Exception {
        TfRecordWriter writer =
                TfRecordWriter.builder(out).compression(compression).closeTarget(false).build();
        TfRecordReadOptions options = TfRecordReadOptions.defaults().withCompression(compression);
        for (Path input : inputFiles) {
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
