package io.tfstream.parse.sequence;

import io.tfstream.parse.wire.ScalarFeature;
import io.tfstream.parse.wire.WireCursor;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The value list of one FeatureList step in the layout protobuf writers produce, decoded without
 * {@link SequenceValueReader}'s general loop: a packed int64 or float list ({@code kind, L, 0x0a, L
 * - 2, values}) or a bytes list of strings with one-byte lengths, every length in one byte and the
 * list filling the step exactly; packed floats are copied as a block. Any other layout returns
 * {@link #DECLINED} having appended nothing, and the general reader decides; for this layout both
 * give the same values.
 */
final class SequenceStepDecoder {
    static final int DECLINED = -1;

    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private SequenceStepDecoder() {}

    /**
     * Packed int64s filling {@code buf[p, end)}; varints of up to eight bytes, each read from one
     * 8-byte load (a longer one declines: the reader takes it).
     */
    static int int64s(Int64Buffer out, byte[] buf, int p, int end) {
        if (end - p < 4
                || buf[p] != 0x1a
                || buf[p + 1] != end - p - 2
                || buf[p + 2] != 0x0a
                || buf[p + 3] != end - p - 4) {
            return DECLINED;
        }
        int q = p + 4;
        int base = out.reserve(end - q); // at most one value per byte
        long[] a = out.array();
        int at = base;
        while (q < end) {
            byte b = buf[q];
            if (b >= 0) {
                a[at++] = b;
                q++;
                continue;
            }
            if (q + 8 > buf.length) {
                out.truncate(base);
                return DECLINED;
            }
            long w = (long) LE_LONG.get(buf, q);
            long stops = ~w & HIGH_BITS;
            int n = (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
            if (stops == 0 || q + n > end) {
                out.truncate(base);
                return DECLINED;
            }
            a[at++] = WireCursor.compact7(w & (-1L >>> (64 - (n << 3))));
            q += n;
        }
        out.truncate(at);
        return at - base;
    }

    /** Packed floats filling {@code buf[p, end)}, copied four bytes at a time. */
    static int floats(Float32Buffer out, byte[] buf, int p, int end) {
        int bytes = end - p - 4;
        if (bytes < 0
                || (bytes & 3) != 0
                || buf[p] != 0x12
                || buf[p + 1] != bytes + 2
                || buf[p + 2] != 0x0a
                || buf[p + 3] != bytes) {
            return DECLINED;
        }
        int n = bytes >> 2;
        int at = out.reserve(n);
        float[] a = out.array();
        int q = p + 4;
        for (int i = 0; i < n; i++, q += 4) {
            a[at + i] = Float.intBitsToFloat((int) ScalarFeature.LE_INT.get(buf, q));
        }
        return n;
    }

    /** A bytes list filling {@code buf[p, end)}, each string with a one-byte length. */
    static int bytes(BytesBuffer out, byte[] buf, int p, int end, int maxBytesPerValue) {
        if (end - p < 2 || buf[p] != 0x0a || buf[p + 1] != end - p - 2) {
            return DECLINED;
        }
        int base = out.size();
        int q = p + 2;
        while (q < end) {
            int len = q + 1 < end && buf[q] == 0x0a ? buf[q + 1] : -1;
            if (len < 0 || len > maxBytesPerValue || len > end - q - 2) {
                out.truncate(base);
                return DECLINED;
            }
            out.add(buf, q + 2, len);
            q += 2 + len;
        }
        return out.size() - base;
    }
}
