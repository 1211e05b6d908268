package io.tfstream.bench.parse;

import io.tfstream.parse.wire.WireCursor;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The physical limit of parsing a record: one pass over its bytes that decodes the protobuf framing
 * (every tag and length) down to the values, decodes each packed int64 varint, and touches every
 * other byte once (float words, names and string bytes folded into a checksum). It builds nothing,
 * looks up no feature and checks nothing beyond the bounds: what any parser of the same bytes must
 * at least do. The shape of {@code tf.train.Example} and {@code SequenceExample} is compiled in
 * (one loop per message level) and varints are decoded a word at a time, as the parser does, so
 * that the walk is a floor and not a slower parser. The parser's time is reported as a multiple of
 * the walk's.
 */
final class WireWalk {
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final WireCursor tail = new WireCursor();
    private byte[] b;
    private int pos;
    private long sum;

    /** Walks every Example record; returns the checksum (so that the work is not dropped). */
    long examples(List<byte[]> records) {
        long s = 0;
        for (byte[] r : records) {
            start(r);
            while (pos < r.length) {
                int stop = field();
                if (stop < 0) {
                    continue;
                }
                entries(stop, false); // Example.features
            }
            s += sum;
        }
        return s;
    }

    /** Walks every SequenceExample record; returns the checksum. */
    long sequenceExamples(List<byte[]> records) {
        long s = 0;
        for (byte[] r : records) {
            start(r);
            while (pos < r.length) {
                int tag = (int) varint();
                int stop = length();
                entries(stop, tag >>> 3 != 1); // context, or feature_lists
            }
            s += sum;
        }
        return s;
    }

    private void start(byte[] r) {
        b = r;
        pos = 0;
        sum = 0;
    }

    /** A length-delimited field's tag and length; returns where it ends (-1 for others). */
    private int field() {
        long tag = varint();
        if ((tag & 7) != 2) {
            sum += varint();
            return -1;
        }
        return length();
    }

    /**
     * A map of names to a {@code Feature} each ({@code Features}), or to a {@code FeatureList} of
     * them ({@code lists}), up to {@code stop}.
     */
    private void entries(int stop, boolean lists) {
        while (pos < stop) {
            varint();
            int entryEnd = length();
            while (pos < entryEnd) {
                int t = (int) varint();
                int end = length();
                if (t >>> 3 == 1) {
                    touch(end); // the name
                } else if (!lists) {
                    feature(end);
                } else {
                    while (pos < end) { // FeatureList: repeated Feature
                        varint();
                        feature(length());
                    }
                }
            }
        }
        pos = stop;
    }

    /** {@code Feature}: one of a bytes, float or int64 list. */
    private void feature(int stop) {
        while (pos < stop) {
            int kind = (int) varint() >>> 3;
            int end = length();
            while (pos < end) {
                int t = (int) varint();
                if ((t & 7) != 2) {
                    sum += (t & 7) == 5 ? (long) b[pos] + b[(pos += 4) - 1] : varint();
                    continue; // an unpacked value
                }
                int valuesEnd = length();
                if (kind == 3) {
                    while (pos < valuesEnd) {
                        sum += varint(); // packed int64s
                    }
                } else {
                    touch(valuesEnd); // packed floats, or one string
                }
            }
        }
        pos = stop;
    }

    private int length() {
        int len = (int) varint();
        int end = pos + len;
        if (len < 0 || end > b.length) {
            throw new IllegalStateException("length past the end");
        }
        return end;
    }

    /** Folds the bytes up to {@code end} into the checksum, eight at a time where it can. */
    private void touch(int end) {
        long s = sum;
        int p = pos;
        for (; p + 8 <= end; p += 8) {
            s += (long) LE_LONG.get(b, p);
        }
        for (; p < end; p++) {
            s += b[p];
        }
        sum = s;
        pos = end;
    }

    /**
     * A varint: one byte, else as one word and two bytes (the parser's decoding), else bytewise.
     */
    private long varint() {
        byte first = b[pos];
        if (first >= 0) {
            pos++;
            return first;
        }
        if (pos + 10 <= b.length) {
            long w = (long) LE_LONG.get(b, pos);
            long stops = ~w & 0x8080808080808080L;
            if (stops != 0) {
                int n = (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
                pos += n;
                return WireCursor.compact7(w & (-1L >>> (64 - (n << 3))));
            }
            long v = WireCursor.compact7(w) | (long) (b[pos + 8] & 0x7f) << 56;
            if (b[pos + 8] >= 0) {
                pos += 9;
                return v;
            }
            pos += 10;
            return v | (long) b[pos - 1] << 63; // negative int64s: ten bytes
        }
        // near the record's end: the parser's own bounds-checked decoding
        tail.reset(b, pos, b.length);
        if (!tail.readVarint64()) {
            throw new IllegalStateException("a varint past the end or over ten bytes");
        }
        pos = tail.pos;
        return tail.value;
    }
}
