package io.tfstream.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The one-value feature as protobuf writers lay it out, appended without the general list decoder:
 * kind byte, list length, then one field (tag 0x0a) holding exactly one int64 varint, one float or
 * one non-empty string, every length in one byte and the field filling the feature exactly. Any
 * other layout returns false having appended nothing, and {@link FeatureListDecoder} decides; for
 * this layout both give the same single value.
 */
final class ScalarFeature {
    private static final VarHandle LE_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private ScalarFeature() {}

    /**
     * Appends the single value of the feature {@code buf[start, end)} (kind byte included, of the
     * column's dtype) to {@code col}; false when the layout is not the canonical one-value layout
     * or a limit below one value applies.
     */
    static boolean tryAppend(KeyColumn col, byte[] buf, int start, int end, ParseLimits limits) {
        int inner = end - start - 4; // bytes of the one packed field's payload
        if (inner < 1
                || inner > 127
                || buf[start + 1] != inner + 2
                || buf[start + 2] != 0x0a
                || buf[start + 3] != inner
                || limits.maxValuesPerFeature() < 1) {
            return false;
        }
        int p = start + 4;
        switch (col.kindByte) {
            case 0x12: // float_list: exactly four bytes
                if (inner != 4) {
                    return false;
                }
                col.floats.add(Float.intBitsToFloat((int) LE_INT.get(buf, p)));
                return true;
            case 0x1a: // int64_list: one varint ending at the last byte
                if (inner > 10) {
                    return false;
                }
                long v = 0;
                int shift = 0;
                int last = end - 1;
                for (; p < last; p++, shift += 7) {
                    byte b = buf[p];
                    if (b >= 0) {
                        return false;
                    }
                    v |= (long) (b & 0x7f) << shift;
                }
                byte b = buf[last];
                if (b < 0) {
                    return false;
                }
                // As protobuf: of a tenth byte only the lowest bit lands (at bit 63).
                col.int64s.add(v | (long) b << shift);
                return true;
            default: // bytes_list: the field is the one string
                if (inner > limits.maxBytesPerValue()) {
                    return false;
                }
                col.bytes.add(buf, p, inner);
                return true;
        }
    }
}
