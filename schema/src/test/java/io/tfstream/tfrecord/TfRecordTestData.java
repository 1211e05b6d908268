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
