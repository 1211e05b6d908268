package io.tfstream.bench;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * Benchmark input: a fixed amount of record data split into records of one size, with content about
 * as compressible as serialized Examples (varint-ish bytes, repeated keys, noise).
 */
public final class RecordCorpus {
    /** Record data per benchmark operation (one file). */
    public static final int DATA_BYTES = 8 << 20;

    private final byte[][] records;

    public RecordCorpus(int recordSize) {
        int count = DATA_BYTES / recordSize;
        SplittableRandom random = new SplittableRandom(42);
        byte[] keys =
                "feature/image/encoded/label/weight/id/"
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        records = new byte[count][];
        for (int i = 0; i < count; i++) {
            byte[] r = new byte[recordSize];
            for (int j = 0; j < recordSize; j++) {
                int kind = random.nextInt(4);
                r[j] =
                        kind == 0
                                ? keys[(i + j) % keys.length]
                                : kind == 1
                                        ? (byte) random.nextInt(16)
                                        : (byte) random.nextInt(256);
            }
            records[i] = r;
        }
    }

    public byte[][] records() {
        return records;
    }

    /** Size of the uncompressed file these records make: data plus 16 bytes per record. */
    public long framedBytes() {
        return (long) records.length * (records[0].length + 16);
    }

    /** The records framed into one uncompressed TFRecord stream. */
    public byte[] framed() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) framedBytes());
        try (TfRecordWriter w = TfRecordWriter.builder(out).compression(Compression.NONE).build()) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        return out.toByteArray();
    }
}
