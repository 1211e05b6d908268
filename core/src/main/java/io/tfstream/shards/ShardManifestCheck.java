package io.tfstream.shards;

import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Checks a shard against its manifest: the file's size and CRC32C as stored, and, reading it as
 * TFRecords of the manifest's compression (both CRCs of every record checked), its record count and
 * record bytes. One pass over the file.
 */
public final class ShardManifestCheck {
    private ShardManifestCheck() {}

    /**
     * The differences between {@code shard} (its stored bytes) and {@code manifest}; empty when
     * they agree.
     *
     * @throws IOException when the shard cannot be read, or is not a valid TFRecord file (the
     *     reader's message names the file and offset)
     */
    public static List<String> check(InputStream shard, String name, ShardManifest manifest)
            throws IOException {
        CrcCountingInput in = new CrcCountingInput(shard);
        long records = 0;
        long recordBytes = 0;
        TfRecordReadOptions options =
                TfRecordReadOptions.defaults().withCompression(manifest.compression());
        try (TfRecordReader reader = TfRecordReader.open(in, name, options)) {
            while (reader.next()) {
                records++;
                recordBytes += reader.length();
            }
            in.drain();
        }
        List<String> problems = new ArrayList<>();
        compare(problems, "bytes", manifest.bytes(), in.count);
        compare(problems, "records", manifest.records(), records);
        compare(problems, "record_bytes", manifest.recordBytes(), recordBytes);
        long crc = in.crc.getValue();
        if (crc != manifest.crc32c()) {
            problems.add(
                    String.format("crc32c: manifest %s, file %08x", manifest.crc32cHex(), crc));
        }
        return problems;
    }

    private static void compare(List<String> problems, String what, long manifest, long actual) {
        if (manifest != actual) {
            problems.add(what + ": manifest " + manifest + ", file " + actual);
        }
    }

    /** Counts and checksums every byte read through it. */
    private static final class CrcCountingInput extends FilterInputStream {
        final CRC32C crc = new CRC32C();
        long count;
        private boolean closed;

        CrcCountingInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                crc.update(b);
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                crc.update(b, off, n);
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buf = new byte[8192];
            long done = 0;
            while (done < n) {
                int r = read(buf, 0, (int) Math.min(buf.length, n - done));
                if (r < 0) {
                    break;
                }
                done += r;
            }
            return done;
        }

        /** Reads what the reader left (a decompressor may stop before the end of the file). */
        void drain() throws IOException {
            if (closed) {
                return;
            }
            byte[] buf = new byte[8192];
            while (read(buf, 0, buf.length) >= 0) {
                // counted and checksummed by read
            }
        }

        @Override
        public void close() throws IOException {
            drain();
            closed = true;
            super.close();
        }
    }
}
