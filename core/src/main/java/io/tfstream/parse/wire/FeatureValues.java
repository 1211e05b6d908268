package io.tfstream.parse.wire;

import io.tfstream.parse.ParseLimits;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.util.Arrays;

/**
 * The decoded values of one serialized {@code tensorflow.Feature} or {@code FeatureList}, read with
 * the Example rules of TensorFlow's fast parser ({@code FeatureListDecoder}): the first byte of a
 * feature is its kind, an empty feature has no kind ({@code KIND_NOT_SET}). Values of each kind go
 * to their own reused buffer, so once the buffers have grown to the largest feature seen nothing is
 * allocated. Counts are checked against {@link ParseLimits} before values are stored.
 */
public final class FeatureValues {
    public static final int KIND_NONE = 0;
    public static final int KIND_BYTES = 1;
    public static final int KIND_FLOAT = 2;
    public static final int KIND_INT64 = 3;

    public static final int MALFORMED = FeatureListDecoder.MALFORMED;
    public static final int TOO_MANY_VALUES = FeatureListDecoder.TOO_MANY_VALUES;
    public static final int VALUE_TOO_LONG = FeatureListDecoder.VALUE_TOO_LONG;

    private final ParseLimits limits;
    private final WireCursor c = new WireCursor();
    private final Int64Buffer int64s = new Int64Buffer(16);
    private final Float32Buffer floats = new Float32Buffer(16);
    private final BytesBuffer bytes = new BytesBuffer(16, 256);
    private int lastCount;
    private int listLength;
    private int[] featureKinds = new int[16];
    private int[] featureCounts = new int[16];

    public FeatureValues(ParseLimits limits) {
        this.limits = limits;
    }

    /** Empties all buffers. */
    public void clear() {
        int64s.truncate(0);
        floats.truncate(0);
        bytes.truncate(0);
        lastCount = 0;
        listLength = 0;
    }

    /**
     * Appends the values of the feature {@code buf[start, end)} to the buffer of its kind; returns
     * the kind, or {@link #MALFORMED}, {@link #TOO_MANY_VALUES} or {@link #VALUE_TOO_LONG}. The
     * number of values is then {@link #lastCount()}.
     */
    public int add(byte[] buf, int start, int end) {
        lastCount = 0;
        if (start == end) {
            return KIND_NONE;
        }
        c.reset(buf, start, end);
        byte kind = buf[start];
        c.pos++;
        int n;
        int k;
        switch (kind) {
            case 0x0a:
                k = KIND_BYTES;
                n =
                        FeatureListDecoder.bytesList(
                                c,
                                bytes,
                                FeatureListDecoder.NO_CAP,
                                limits.maxValuesPerFeature(),
                                limits.maxBytesPerValue());
                break;
            case 0x12:
                k = KIND_FLOAT;
                n =
                        FeatureListDecoder.floatList(
                                c, floats, FeatureListDecoder.NO_CAP, limits.maxValuesPerFeature());
                break;
            case 0x1a:
                k = KIND_INT64;
                n =
                        FeatureListDecoder.int64List(
                                c, int64s, FeatureListDecoder.NO_CAP, limits.maxValuesPerFeature());
                break;
            default:
                return MALFORMED;
        }
        if (n < 0) {
            return n;
        }
        lastCount = n;
        return k;
    }

    /**
     * Appends the values of every feature of the {@code FeatureList} {@code buf[start, end)};
     * returns the number of features in the list (then {@link #listKind(int)} and {@link
     * #listCount(int)} describe each), or a negative status as {@link #add}.
     */
    public int addList(byte[] buf, int start, int end) {
        listLength = 0;
        WireCursor c = this.c;
        int p = start;
        while (p < end) {
            c.reset(buf, p, end);
            if (!c.expectTag(0x0a) || !c.readVarint32() || c.value > c.remaining()) {
                return MALFORMED;
            }
            int fStart = c.pos;
            int fEnd = fStart + (int) c.value;
            if (listLength == limits.maxValuesPerFeature()) {
                return TOO_MANY_VALUES;
            }
            int kind = add(buf, fStart, fEnd);
            if (kind < 0) {
                return kind;
            }
            if (listLength == featureKinds.length) {
                featureKinds = Arrays.copyOf(featureKinds, listLength * 2);
                featureCounts = Arrays.copyOf(featureCounts, listLength * 2);
            }
            featureKinds[listLength] = kind;
            featureCounts[listLength] = lastCount;
            listLength++;
            p = fEnd;
        }
        return listLength;
    }

    /** Values of the feature added last. */
    public int lastCount() {
        return lastCount;
    }

    /** The kind of feature {@code i} of the list added last. */
    public int listKind(int i) {
        return featureKinds[i];
    }

    /** The number of values of feature {@code i} of the list added last. */
    public int listCount(int i) {
        return featureCounts[i];
    }

    public Int64Buffer int64s() {
        return int64s;
    }

    public Float32Buffer floats() {
        return floats;
    }

    public BytesBuffer bytes() {
        return bytes;
    }
}
