package io.tfstream.fuzz;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The byte layout shared by the fuzz targets and their seed corpus: one configuration byte, then
 * records, each as a two-byte big-endian length and that many bytes. A length past the end takes
 * what is left, so every input decodes to some batch and mutations of a length stay meaningful.
 */
final class FuzzRecords {
    /** More records add little coverage and slow each execution. */
    static final int MAX_RECORDS = 8;

    /**
     * Upper bound on one fuzzing session; libFuzzer's {@code -runs} (see FUZZING.md) normally ends
     * it first. Long enough for 10 million executions of the slowest target (the TFRecord reader,
     * whose compressed inputs inflate up to ~1000×) on a shared core. Regression mode ignores it.
     */
    static final String MAX_DURATION = "3h";

    private FuzzRecords() {}

    /** The configuration byte (0 for an empty input). */
    static int config(byte[] data) {
        return data.length == 0 ? 0 : data[0] & 0xff;
    }

    /** The records after the configuration byte. */
    static List<byte[]> records(byte[] data) {
        List<byte[]> out = new ArrayList<>();
        int p = 1;
        while (p < data.length && out.size() < MAX_RECORDS) {
            int len = (data[p] & 0xff) << 8;
            if (p + 1 < data.length) {
                len |= data[p + 1] & 0xff;
            }
            p = Math.min(p + 2, data.length);
            int n = Math.min(len, data.length - p);
            out.add(Arrays.copyOfRange(data, p, p + n));
            p += n;
        }
        return out;
    }

    /** Inverse of {@link #config} and {@link #records}, for writing seeds. */
    static byte[] encode(int config, List<byte[]> records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(config);
        for (byte[] r : records.subList(0, Math.min(records.size(), MAX_RECORDS))) {
            if (r.length > 0xffff) {
                throw new IllegalArgumentException("seed record too long: " + r.length);
            }
            out.write(r.length >>> 8);
            out.write(r.length);
            out.write(r, 0, r.length);
        }
        return out.toByteArray();
    }
}
