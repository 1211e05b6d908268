package io.tfstream.stats;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The features of a serialized {@code tf.train.Example} read straight from its wire bytes, for
 * {@link ExampleStatistics#addSerialized}: a name, a kind and the bytes of its value list per
 * feature, without building the message. Only records whose features are unambiguous on the wire
 * are read: every name once and valid UTF-8, every feature one list or none, no groups. For any
 * other record {@link #scan} returns false and the caller parses it with protobuf, whose merge
 * rules (a repeated name or list replaces or extends the earlier one) then apply; so both paths
 * count every record alike.
 */
final class SerializedExample {
    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH = 2;
    private static final int WIRE_FIXED32 = 5;

    /** Names remembered across records, so that a name's bytes become its string once. */
    private static final int MAX_NAMES = 1 << 16;

    private byte[] b;
    private int pos;
    int count;
    String[] names = new String[16];
    int[] ids = new int[16];
    int[] kinds = new int[16];
    int[] from = new int[16];
    int[] to = new int[16];
    private final ByteKeyTable known = new ByteKeyTable(MAX_NAMES);
    private String[] nameOf = new String[16];
    private long[] seenIn = new long[16];
    private long record;

    /** Reads record {@code bytes}; false when it has to be parsed by protobuf instead. */
    boolean scan(byte[] bytes) {
        b = bytes;
        count = 0;
        record++;
        try {
            return example(0, bytes.length);
        } catch (ArrayIndexOutOfBoundsException | NegativeArraySizeException e) {
            return false; // damaged: protobuf decides
        }
    }

    /** The bytes read by the last {@link #scan}. */
    byte[] bytes() {
        return b;
    }

    private boolean example(int start, int end) {
        pos = start;
        while (pos < end) {
            long tag = varint();
            int field = (int) (tag >>> 3);
            int wire = (int) tag & 7;
            if (field == 1 && wire == WIRE_LENGTH) {
                int len = length(end);
                if (len < 0 || !features(pos, pos + len)) {
                    return false;
                }
            } else if (!skip(wire, end)) {
                return false;
            }
        }
        return pos == end;
    }

    private boolean features(int start, int end) {
        pos = start;
        while (pos < end) {
            long tag = varint();
            int wire = (int) tag & 7;
            if (tag >>> 3 == 1 && wire == WIRE_LENGTH) {
                int len = length(end);
                if (len < 0) {
                    return false;
                }
                int next = pos + len;
                if (!entry(pos, next)) {
                    return false;
                }
                pos = next;
            } else if (!skip(wire, end)) {
                return false;
            }
        }
        return pos == end;
    }

    /** A map entry: key (field 1) and Feature (field 2), each exactly once. */
    private boolean entry(int start, int end) {
        pos = start;
        int keyFrom = -1;
        int keyTo = -1;
        int valueFrom = -1;
        int valueTo = -1;
        while (pos < end) {
            long tag = varint();
            int field = (int) (tag >>> 3);
            int wire = (int) tag & 7;
            if ((field == 1 || field == 2) && wire == WIRE_LENGTH) {
                int len = length(end);
                if (len < 0) {
                    return false;
                }
                if (field == 1) {
                    if (keyFrom >= 0) {
                        return false;
                    }
                    keyFrom = pos;
                    keyTo = pos + len;
                } else {
                    if (valueFrom >= 0) {
                        return false;
                    }
                    valueFrom = pos;
                    valueTo = pos + len;
                }
                pos += len;
            } else if (!skip(wire, end)) {
                return false;
            }
        }
        if (pos != end || keyFrom < 0 || valueFrom < 0) {
            return false;
        }
        int id = idOf(keyFrom, keyTo);
        if (id < 0 || seenIn[id] == record) {
            return false; // not UTF-8, too many names, or a name twice in the record
        }
        seenIn[id] = record;
        grow();
        names[count] = nameOf[id];
        ids[count] = id;
        if (!feature(valueFrom, valueTo)) {
            return false;
        }
        count++;
        return true;
    }

    /** A Feature: at most one of bytes_list (1), float_list (2), int64_list (3). */
    private boolean feature(int start, int end) {
        pos = start;
        int kind = FeatureAccumulator.NONE;
        while (pos < end) {
            long tag = varint();
            int field = (int) (tag >>> 3);
            int wire = (int) tag & 7;
            if (field >= 1 && field <= 3 && wire == WIRE_LENGTH) {
                int len = length(end);
                if (len < 0 || kind != FeatureAccumulator.NONE) {
                    return false;
                }
                kind =
                        field == 1
                                ? FeatureAccumulator.BYTES
                                : field == 2 ? FeatureAccumulator.FLOAT : FeatureAccumulator.INT;
                from[count] = pos;
                to[count] = pos + len;
                pos += len;
            } else if (!skip(wire, end)) {
                return false;
            }
        }
        kinds[count] = kind;
        return pos == end;
    }

    /**
     * The number of values in feature {@code i}'s list, or -1 when its bytes are not a list
     * protobuf would read the same way (then the record is parsed by protobuf).
     */
    long values(int i) {
        int end = to[i];
        pos = from[i];
        long n = 0;
        while (pos < end) {
            long tag = varint();
            int wire = (int) tag & 7;
            if (tag >>> 3 != 1) {
                if (!skip(wire, end)) {
                    return -1;
                }
                continue;
            }
            switch (kinds[i]) {
                case FeatureAccumulator.INT -> {
                    if (wire == WIRE_VARINT) {
                        varint();
                        n++;
                    } else if (wire == WIRE_LENGTH) {
                        int len = length(end);
                        if (len < 0) {
                            return -1;
                        }
                        int stop = pos + len;
                        while (pos < stop) {
                            varint();
                            n++;
                        }
                        if (pos != stop) {
                            return -1;
                        }
                    } else {
                        return -1;
                    }
                }
                case FeatureAccumulator.FLOAT -> {
                    if (wire == WIRE_FIXED32) {
                        pos += 4;
                        n++;
                    } else if (wire == WIRE_LENGTH) {
                        int len = length(end);
                        if (len < 0 || (len & 3) != 0) {
                            return -1;
                        }
                        pos += len;
                        n += len >>> 2;
                    } else {
                        return -1;
                    }
                }
                default -> {
                    if (wire != WIRE_LENGTH) {
                        return -1;
                    }
                    int len = length(end);
                    if (len < 0) {
                        return -1;
                    }
                    pos += len;
                    n++;
                }
            }
        }
        return pos == end ? n : -1;
    }

    /** What {@link #feed} gives a feature's values to. */
    interface Values {
        void number(long v);

        void number(double v);

        void string(byte[] b, int off, int len);
    }

    /** Feeds feature {@code i}'s values (checked by {@link #values}) to {@code a}. */
    void feed(int i, Values a) {
        int end = to[i];
        pos = from[i];
        while (pos < end) {
            long tag = varint();
            int wire = (int) tag & 7;
            if (tag >>> 3 != 1) {
                skip(wire, end);
                continue;
            }
            switch (kinds[i]) {
                case FeatureAccumulator.INT -> {
                    if (wire == WIRE_VARINT) {
                        a.number(varint());
                    } else {
                        int len = length(end); // before pos is read: it moves it
                        int stop = pos + len;
                        while (pos < stop) {
                            a.number(varint());
                        }
                    }
                }
                case FeatureAccumulator.FLOAT -> {
                    int len = wire == WIRE_FIXED32 ? 4 : length(end);
                    int stop = pos + len;
                    while (pos < stop) {
                        a.number((double) Float.intBitsToFloat(fixed32()));
                    }
                }
                default -> {
                    int len = length(end);
                    a.string(b, pos, len);
                    pos += len;
                }
            }
        }
    }

    /** The one int64 or float value of feature {@code i}, or NaN when it has not exactly one. */
    double single(int i) {
        if (kinds[i] == FeatureAccumulator.NONE
                || kinds[i] == FeatureAccumulator.BYTES
                || values(i) != 1) {
            return Double.NaN;
        }
        double[] value = {Double.NaN};
        feed(
                i,
                new Values() {
                    @Override
                    public void number(long v) {
                        value[0] = v;
                    }

                    @Override
                    public void number(double v) {
                        value[0] = v;
                    }

                    @Override
                    public void string(byte[] bytes, int off, int len) {}
                });
        return value[0];
    }

    /** The id of the name {@code b[from, to)}, remembered from now on; -1 for none. */
    private int idOf(int from, int to) {
        int id = known.find(b, from, to - from);
        if (id >= 0) {
            return id;
        }
        if (!Utf8.valid(b, from, to)) {
            return -1;
        }
        id = known.add(b, from, to - from, 0);
        if (id < 0) {
            return -1;
        }
        if (id == nameOf.length) {
            nameOf = Arrays.copyOf(nameOf, id * 2);
            seenIn = Arrays.copyOf(seenIn, id * 2);
        }
        nameOf[id] = new String(b, from, to - from, StandardCharsets.UTF_8);
        return id;
    }

    /** Ids of names are below this. */
    int names() {
        return known.size();
    }

    private void grow() {
        if (count == names.length) {
            int n = count * 2;
            names = Arrays.copyOf(names, n);
            ids = Arrays.copyOf(ids, n);
            kinds = Arrays.copyOf(kinds, n);
            from = Arrays.copyOf(from, n);
            to = Arrays.copyOf(to, n);
        }
    }

    /** A length prefix that fits before {@code end}, or -1. */
    private int length(int end) {
        long len = varint();
        return len < 0 || len > end - pos ? -1 : (int) len;
    }

    /** Skips a field of wire type {@code wire}; false for groups and unknown wire types. */
    private boolean skip(int wire, int end) {
        switch (wire) {
            case WIRE_VARINT -> varint();
            case WIRE_FIXED64 -> pos += 8;
            case WIRE_FIXED32 -> pos += 4;
            case WIRE_LENGTH -> {
                int len = length(end);
                if (len < 0) {
                    return false;
                }
                pos += len;
            }
            default -> {
                return false;
            }
        }
        return pos <= end;
    }

    private long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte x = b[pos++];
            v |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                return v;
            }
        }
        throw new ArrayIndexOutOfBoundsException("varint longer than 10 bytes");
    }

    private int fixed32() {
        int v =
                (b[pos] & 0xff)
                        | (b[pos + 1] & 0xff) << 8
                        | (b[pos + 2] & 0xff) << 16
                        | (b[pos + 3] & 0xff) << 24;
        pos += 4;
        return v;
    }
}
