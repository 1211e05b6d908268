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
 * A whole int64, float or bytes FeatureList in the layout protobuf writers produce, decoded in one
 * loop with the column's array and step ends in local variables: every step {@code 0x0a, len, kind,
 * len - 2, 0x0a, len - 4, packed values} (or an empty one, {@code Feature{}} or an empty list) with
 * one-byte lengths, varints of up to eight bytes, and (for a dense list) the shape's number of
 * values per step. Any other list returns {@link #DECLINED} with the column as it was, and the
 * step-by-step loop of {@link SequenceOnePass} decides; for this layout both give the same values
 * and steps.
 */
final class SequenceListDecoder {
    static final int DECLINED = -1;

    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private SequenceListDecoder() {}

    /**
     * Decodes the int64 list {@code buf[start, end)} into {@code col}; returns its steps. {@code
     * perStep} is the values each step must hold, or -1 for any number.
     */
    static int int64s(SequenceColumn col, byte[] buf, int start, int end, int perStep) {
        Int64Buffer out = col.int64s;
        int base = out.size();
        int stepsBase = col.steps;
        int at = base;
        long[] a = out.array();
        int[] stepEnds = col.reserveSteps((end - start) >> 1); // a step takes at least two bytes
        int s = stepsBase;
        int p = start;
        while (p < end) {
            int len = end - p >= 2 && buf[p] == 0x0a ? buf[p + 1] : -1;
            int q = p + 2;
            int stepEnd = q + len;
            if ((len == 0 || len == 2) && stepEnd <= end && perStep < 0) {
                // Feature{} or an empty int64_list: a step without values
                if (len == 2 && (buf[q] != 0x1a || buf[q + 1] != 0)) {
                    return decline(col, base, stepsBase);
                }
                stepEnds[++s] = at;
                p = stepEnd;
                continue;
            }
            if (len < 4
                    || stepEnd > end
                    || buf[q] != 0x1a
                    || buf[q + 1] != len - 2
                    || buf[q + 2] != 0x0a
                    || buf[q + 3] != len - 4) {
                return decline(col, base, stepsBase);
            }
            if (at + len > a.length) { // at most one value per byte: count them exactly
                int values = 0;
                for (int r = q + 4; r < stepEnd; r++) {
                    values += buf[r] >= 0 ? 1 : 0;
                }
                if (at + values > a.length) {
                    out.truncate(at);
                    out.reserve(values);
                    out.truncate(at);
                    a = out.array();
                }
            }
            int first = at;
            int r = q + 4;
            while (r < stepEnd) {
                byte b = buf[r];
                if (b >= 0) {
                    a[at++] = b;
                    r++;
                    continue;
                }
                if (r + 8 > buf.length) {
                    return decline(col, base, stepsBase);
                }
                long w = (long) LE_LONG.get(buf, r);
                long stops = ~w & HIGH_BITS;
                int n = (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
                if (stops == 0 || r + n > stepEnd) {
                    return decline(col, base, stepsBase);
                }
                a[at++] = WireCursor.compact7(w & (-1L >>> (64 - (n << 3))));
                r += n;
            }
            if (perStep >= 0 && at - first != perStep) {
                return decline(col, base, stepsBase);
            }
            stepEnds[++s] = at;
            p = stepEnd;
        }
        out.truncate(at);
        col.steps = s;
        return s - stepsBase;
    }

    /** As {@link #int64s} for a float list: each step's packed floats copied as a block. */
    static int floats(SequenceColumn col, byte[] buf, int start, int end, int perStep) {
        Float32Buffer out = col.floats;
        int base = out.size();
        int stepsBase = col.steps;
        int at = base;
        float[] a = out.array();
        int[] stepEnds = col.reserveSteps((end - start) >> 1);
        int s = stepsBase;
        int p = start;
        while (p < end) {
            int len = end - p >= 2 && buf[p] == 0x0a ? buf[p + 1] : -1;
            int q = p + 2;
            int stepEnd = q + len;
            if ((len == 0 || len == 2) && stepEnd <= end && perStep < 0) {
                // Feature{} or an empty float_list: a step without values
                if (len == 2 && (buf[q] != 0x12 || buf[q + 1] != 0)) {
                    return decline(col, base, stepsBase);
                }
                stepEnds[++s] = at;
                p = stepEnd;
                continue;
            }
            int bytes = len - 4;
            if (len < 4
                    || stepEnd > end
                    || (bytes & 3) != 0
                    || buf[q] != 0x12
                    || buf[q + 1] != len - 2
                    || buf[q + 2] != 0x0a
                    || buf[q + 3] != bytes
                    || (perStep >= 0 && bytes >> 2 != perStep)) {
                return decline(col, base, stepsBase);
            }
            if (at + (bytes >> 2) > a.length) {
                out.truncate(at);
                out.reserve(bytes >> 2);
                a = out.array();
            }
            for (int r = q + 4; r < stepEnd; r += 4) {
                a[at++] = Float.intBitsToFloat((int) ScalarFeature.LE_INT.get(buf, r));
            }
            stepEnds[++s] = at;
            p = stepEnd;
        }
        out.truncate(at);
        col.steps = s;
        return s - stepsBase;
    }

    /**
     * As {@link #int64s} for a bytes list of steps {@code 0x0a, len, 0x0a, len - 2, strings} (or
     * empty ones), each string {@code 0x0a, n, bytes} with {@code n} below 128 and within {@code
     * maxBytesPerValue}.
     */
    static int bytes(
            SequenceColumn col, byte[] buf, int start, int end, int perStep, int maxBytesPerValue) {
        BytesBuffer out = col.bytes;
        int base = out.size();
        int stepsBase = col.steps;
        int[] stepEnds = col.reserveSteps((end - start) >> 1);
        int s = stepsBase;
        int p = start;
        while (p < end) {
            int len = end - p >= 2 && buf[p] == 0x0a ? buf[p + 1] : -1;
            int q = p + 2;
            int stepEnd = q + len;
            if (len < 2 || stepEnd > end || buf[q] != 0x0a || buf[q + 1] != len - 2) {
                if (len == 0 && stepEnd <= end && perStep < 0) {
                    stepEnds[++s] = out.size(); // Feature{}: a step without values
                    p = stepEnd;
                    continue;
                }
                return decline(col, base, stepsBase);
            }
            int first = out.size();
            int r = q + 2;
            while (r < stepEnd) {
                int n = r + 1 < stepEnd && buf[r] == 0x0a ? buf[r + 1] : -1;
                if (n < 0 || n > maxBytesPerValue || n > stepEnd - r - 2) {
                    return decline(col, base, stepsBase);
                }
                out.add(buf, r + 2, n);
                r += 2 + n;
            }
            if (perStep >= 0 && out.size() - first != perStep) {
                return decline(col, base, stepsBase);
            }
            stepEnds[++s] = out.size();
            p = stepEnd;
        }
        col.steps = s;
        return s - stepsBase;
    }

    private static int decline(SequenceColumn col, int base, int stepsBase) {
        if (col.int64s != null) {
            col.int64s.truncate(base);
        } else if (col.floats != null) {
            col.floats.truncate(base);
        } else {
            col.bytes.truncate(base);
        }
        col.steps = stepsBase;
        return DECLINED;
    }
}
