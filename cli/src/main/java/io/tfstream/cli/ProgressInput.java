package io.tfstream.cli;

import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file's bytes as stored (before decompression) that tell {@link Progress} how far reading got,
 * so that one large file shows progress too.
 */
final class ProgressInput extends FilterInputStream {
    private final Progress progress;
    private long bytes;

    private ProgressInput(InputStream in, Progress progress) {
        super(in);
        this.progress = progress;
    }

    /** A reader over {@code file}, as {@code TfRecordFiles.openReader}, reporting to progress. */
    static TfRecordReader openReader(Path file, TfRecordReadOptions options, Progress progress)
            throws IOException {
        InputStream raw = new ProgressInput(Files.newInputStream(file), progress);
        try {
            return TfRecordReader.open(raw, file.toString(), options);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            progress.read(++bytes);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            bytes += n;
            progress.read(bytes);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        bytes += skipped;
        progress.read(bytes);
        return skipped;
    }
}
