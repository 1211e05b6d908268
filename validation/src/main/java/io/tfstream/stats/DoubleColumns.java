package io.tfstream.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Parallel double arrays written and read interleaved, entry by entry, in the big-endian bytes of
 * {@link DataOutput#writeDouble} (so the layout is that of a per-value loop), but through a chunk
 * buffer: a sketch's buffer and summaries are most of the window state, and per-value stream calls
 * cost more than the sketch.
 */
final class DoubleColumns {
    private static final VarHandle BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final int CHUNK = 8192;

    private DoubleColumns() {}

    /** Entries {@code 0..n-1} of {@code columns}, each entry's values in column order. */
    static void write(DataOutput out, int n, double[]... columns) throws IOException {
        int width = columns.length * 8;
        byte[] chunk = new byte[Math.min(CHUNK, Math.max(width, n * width))];
        int perChunk = chunk.length / width;
        for (int from = 0; from < n; from += perChunk) {
            int to = Math.min(n, from + perChunk);
            int at = 0;
            for (int i = from; i < to; i++) {
                for (double[] c : columns) {
                    // doubleToLongBits, as writeDouble: one NaN bit pattern
                    BE.set(chunk, at, Double.doubleToLongBits(c[i]));
                    at += 8;
                }
            }
            out.write(chunk, 0, at);
        }
    }

    /**
     * Reads {@code n} entries written by {@link #write} into {@code columns} from index {@code
     * offset}.
     */
    static void read(DataInput in, int offset, int n, double[]... columns) throws IOException {
        int width = columns.length * 8;
        byte[] chunk = new byte[Math.min(CHUNK, Math.max(width, n * width))];
        int perChunk = chunk.length / width;
        for (int from = offset; from < offset + n; from += perChunk) {
            int to = Math.min(offset + n, from + perChunk);
            in.readFully(chunk, 0, (to - from) * width);
            int at = 0;
            for (int i = from; i < to; i++) {
                for (double[] c : columns) {
                    c[i] = Double.longBitsToDouble((long) BE.get(chunk, at));
                    at += 8;
                }
            }
        }
    }
}
