package io.tfstream.bench.parse;

import java.util.List;

/**
 * The physical limit of parsing a record: one pass over its bytes that decodes the protobuf framing
 * (every tag and length varint) down to the values, decodes each packed int64 varint, and touches
 * every other byte once (float words and string bytes folded into a checksum). It builds nothing,
 * looks up no feature and checks nothing beyond the bounds: what any parser of the same bytes must
 * at least do. The parser's time is reported as a multiple of this walk's.
 *
 * <p>Knows the shape of {@code tf.train.Example} and {@code tf.train.SequenceExample}: messages are
 * descended into by field number, as a parser with the schema compiled in would.
 */
final class WireWalk {
    private byte[] buf;
    private int pos;
    private long sum;

    /** Walks every record; returns the checksum (so that the work is not dropped). */
    long examples(List<byte[]> records) {
        long s = 0;
        for (byte[] r : records) {
            buf = r;
            pos = 0;
            sum = 0;
            message(r.length, Shape.EXAMPLE);
            s += sum;
        }
        return s;
    }

    /** Walks every SequenceExample record; returns the checksum. */
    long sequenceExamples(List<byte[]> records) {
        long s = 0;
        for (byte[] r : records) {
            buf = r;
            pos = 0;
            sum = 0;
            message(r.length, Shape.SEQUENCE_EXAMPLE);
            s += sum;
        }
        return s;
    }

    /** What a length-delimited field of a message holds, by the message's shape. */
    private enum Shape {
        EXAMPLE,
        SEQUENCE_EXAMPLE,
        FEATURES, // map<string, Feature>
        FEATURE_LISTS, // map<string, FeatureList>
        FEATURES_ENTRY,
        FEATURE_LISTS_ENTRY,
        FEATURE_LIST, // repeated Feature
        FEATURE,
        BYTES_LIST,
        FLOAT_LIST,
        INT64_LIST
    }

    private static Shape child(Shape parent, int field) {
        return switch (parent) {
            case EXAMPLE -> field == 1 ? Shape.FEATURES : null;
            case SEQUENCE_EXAMPLE ->
                    field == 1 ? Shape.FEATURES : field == 2 ? Shape.FEATURE_LISTS : null;
            case FEATURES -> field == 1 ? Shape.FEATURES_ENTRY : null;
            case FEATURE_LISTS -> field == 1 ? Shape.FEATURE_LISTS_ENTRY : null;
            case FEATURES_ENTRY -> field == 2 ? Shape.FEATURE : null;
            case FEATURE_LISTS_ENTRY -> field == 2 ? Shape.FEATURE_LIST : null;
            case FEATURE_LIST -> field == 1 ? Shape.FEATURE : null;
            case FEATURE ->
                    field == 1
                            ? Shape.BYTES_LIST
                            : field == 2 ? Shape.FLOAT_LIST : field == 3 ? Shape.INT64_LIST : null;
            default -> null;
        };
    }

    private void message(int end, Shape shape) {
        while (pos < end) {
            long tag = varint();
            int field = (int) (tag >>> 3);
            switch ((int) tag & 7) {
                case 0 -> sum += varint();
                case 1 -> touch(8);
                case 5 -> touch(4);
                case 2 -> {
                    int len = (int) varint();
                    int stop = pos + len;
                    if (len < 0 || stop > end) {
                        throw new IllegalStateException("length past the end");
                    }
                    Shape c = child(shape, field);
                    if (c == Shape.INT64_LIST) {
                        while (pos < stop) {
                            sum += varint(); // packed int64s
                        }
                    } else if (c == Shape.FLOAT_LIST || c == Shape.BYTES_LIST || c == null) {
                        if (c == Shape.BYTES_LIST) {
                            message(stop, Shape.BYTES_LIST); // each value: tag, length, bytes
                        } else {
                            touch(len);
                        }
                    } else {
                        message(stop, c);
                    }
                    pos = stop;
                }
                default -> throw new IllegalStateException("wire type " + (tag & 7));
            }
        }
    }

    /** Folds {@code n} bytes into the checksum, eight at a time where it can. */
    private void touch(int n) {
        int end = pos + n;
        if (n < 0 || end > buf.length) {
            throw new IllegalStateException("field past the end");
        }
        long s = sum;
        int p = pos;
        for (; p + 8 <= end; p += 8) {
            s += (long) LONGS.get(buf, p);
        }
        for (; p < end; p++) {
            s += buf[p];
        }
        sum = s;
        pos = end;
    }

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
                    long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = buf[pos++];
            v |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new IllegalStateException("varint over 10 bytes");
    }
}
