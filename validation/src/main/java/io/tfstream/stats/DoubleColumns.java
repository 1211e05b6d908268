package io.tfstream.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * Parallel double arrays written and read interleaved, entry by entry, in the big-endian bytes of
 * {@link DataOutput#writeDouble} (so the layout is that of a per-value loop), but through a chunk
 * buffer converted in bulk: a sketch's buffer and summaries are most of the window state, and
 * per-value stream calls cost more than the sketch. The bulk conversion is fast before the JIT has
 * compiled anything, which matters because each job's classes are compiled afresh.
 */
final class DoubleColumns {
    /** Doubles per chunk. */
    private static final int CHUNK = 1024;

    private DoubleColumns() {}

    /** Entries {@code 0..n-1} of {@code columns}, each entry's values in column order. */
    static void write(DataOutput out, int n, double[]... columns) throws IOException {
        int width = columns.length;
        int perChunk = Math.max(1, CHUNK / width);
        double[] tmp = new double[Math.min(n, perChunk) * width];
        byte[] bytes = new byte[tmp.length * 8];
        DoubleBuffer view = ByteBuffer.wrap(bytes).asDoubleBuffer();
        for (int from = 0; from < n; from += perChunk) {
            int to = Math.min(n, from + perChunk);
            int j = 0;
            for (int i = from; i < to; i++) {
                for (double[] c : columns) {
                    double x = c[i];
                    tmp[j++] = x != x ? Double.NaN : x; // one NaN bit pattern, as writeDouble
                }
            }
            view.put(0, tmp, 0, j);
            out.write(bytes, 0, j * 8);
        }
    }

    /**
     * Reads {@code n} entries written by {@link #write} into {@code columns} from index {@code
     * offset}.
     */
    static void read(DataInput in, int offset, int n, double[]... columns) throws IOException {
        int width = columns.length;
        int perChunk = Math.max(1, CHUNK / width);
        double[] tmp = new double[Math.min(n, perChunk) * width];
        byte[] bytes = new byte[tmp.length * 8];
        DoubleBuffer view = ByteBuffer.wrap(bytes).asDoubleBuffer();
        for (int from = offset; from < offset + n; from += perChunk) {
            int to = Math.min(offset + n, from + perChunk);
            int count = (to - from) * width;
            in.readFully(bytes, 0, count * 8);
            view.get(0, tmp, 0, count);
            if (width == 1) {
                System.arraycopy(tmp, 0, columns[0], from, count);
                continue;
            }
            int j = 0;
            for (int i = from; i < to; i++) {
                for (double[] c : columns) {
                    c[i] = tmp[j++];
                }
            }
        }
    }
}
