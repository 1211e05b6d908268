package io.tfstream.tfrecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Records and framed streams for TFRecord tests. */
public final class TfRecordTestData {
    private TfRecordTestData() {}

    /** {@code count} records of pseudo-random content and lengths 0..maxLength, seeded. */
    public static List<byte[]> records(int count, int maxLength, long seed) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] b = new byte[i == 0 ? 0 : r.nextInt(maxLength + 1)];
            r.nextBytes(b);
            out.add(b);
        }
        return out;
    }

    /**
     * The records of the golden files under {@code golden/} (written by TensorFlow): lengths 0x8b1f
     * (whose little-endian length starts with the gzip magic), 0, 1, 10, 100 and 1000, byte j of
     * record i being {@code (7 * i + j) & 0xff}.
     */
    public static List<byte[]> goldenRecords() {
        int[] lengths = {0x8b1f, 0, 1, 10, 100, 1000};
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            byte[] b = new byte[lengths[i]];
            for (int j = 0; j < b.length; j++) {
                b[j] = (byte) (7 * i + j);
            }
            out.add(b);
        }
        return out;
    }

    /** Name of the golden file TensorFlow wrote with compression {@code c}. */
    public static String goldenFileName(Compression c) {
        return "tf-" + c.cliName() + ".tfrecord";
    }

    /** The records written by {@link TfRecordWriter} with the given compression. */
    public static byte[] write(List<byte[]> records, Compression c) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TfRecordWriter w = TfRecordWriter.builder(out).compression(c).build()) {
            for (byte[] rec : records) {
                w.write(rec);
            }
        }
        return out.toByteArray();
    }

    /** Every record of {@code reader} until the end, copied. */
    public static List<byte[]> readAll(TfRecordReader reader) throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (byte[] rec = reader.readRecord(); rec != null; rec = reader.readRecord()) {
            out.add(rec);
        }
        return out;
    }

    /** Offsets of each record's header in an uncompressed stream of {@code records}. */
    public static long[] offsets(List<byte[]> records) {
        long[] offsets = new long[records.size() + 1];
        for (int i = 0; i < records.size(); i++) {
            offsets[i + 1] = offsets[i] + records.get(i).length + TfRecordFraming.OVERHEAD;
        }
        return offsets;
    }
}
