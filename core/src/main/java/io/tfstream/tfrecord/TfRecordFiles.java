package io.tfstream.tfrecord;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opening TFRecord files by path: the file name takes part in compression auto-detection. */
public final class TfRecordFiles {
    private TfRecordFiles() {}

    /** A reader over {@code file}; errors name the file as given. */
    public static TfRecordReader openReader(Path file, TfRecordReadOptions options)
            throws IOException {
        InputStream raw = Files.newInputStream(file);
        try {
            return TfRecordReader.open(raw, file.toString(), options);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /**
     * A writer creating or truncating {@code file}, closing it on close. Uncompressed files are
     * written through a {@link FileChannel}.
     */
    public static TfRecordWriter newWriter(Path file, Compression compression) throws IOException {
        if (compression == Compression.NONE) {
            FileChannel channel =
                    FileChannel.open(
                            file,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
            try {
                return TfRecordWriter.builder(channel).build();
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }
        OutputStream out = Files.newOutputStream(file);
        try {
            return TfRecordWriter.builder(out).compression(compression).build();
        } catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }
}
