package io.tfstream.parse.wire;

import io.tfstream.parse.example.RawColumns;
import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;

/**
 * The values parsed for one raw key over a batch: one growable column of the key's dtype and, for
 * variable-length keys, the cumulative value count at the end of every row.
 */
public final class KeyColumn {
    static final int MAX_PRESIZE = 1 << 20;

    public final RawKey key;

    /** Copies of key properties read for every value, kept beside the buffers. */
    public final boolean dense;

    public final byte kindByte;

    /**
     * A one-value feature is a whole row's worth: a scalar dense key, or a VarLen / Ragged key
     * (whose row then holds that one value).
     */
    public final boolean scalarShortcut;

    public Int64Buffer int64s;
    public Float32Buffer floats;
    public BytesBuffer bytes;
    public int[] ends;

    /**
     * Per row of the batch: {@link RawColumns#ABSENT}, {@link RawColumns#PRESENT} or {@link
     * RawColumns#NO_KIND}; written only when the parser tracks rows.
     */
    public byte[] rowState = new byte[0];

    /** The last row in which this key had a {@code Feature{}} entry (no kind). */
    public int noKindRow;

    /** The last row this key was seen in (TensorFlow's {@code *_last_example}). */
    public int seenRow;

    /** Column size at the start of the current minibatch, for TensorFlow's count messages. */
    public int minibatchBase;

    private int valueHint = 64;

    /** String bytes and values of the previous batch: their ratio sizes the next byte array. */
    private long lastBytes = 8;

    private long lastValues = 1;

    public KeyColumn(RawKey key) {
        this.key = key;
        this.dense = key.isDense();
        this.kindByte =
                key.dtype == DType.INT64 ? 0x1a : key.dtype == DType.FLOAT32 ? (byte) 0x12 : 0x0a;
        this.scalarShortcut =
                key.kind == RawKey.Kind.DENSE_FIXED
                        ? key.stride == 1
                        : key.kind == RawKey.Kind.SPARSE || key.kind == RawKey.Kind.RAGGED;
    }

    /**
     * Fresh buffers for a batch of {@code rows} records, sized from the shape or the previous
     * batch; at most {@link #MAX_PRESIZE} values up front, the rest grows as values arrive.
     */
    public void start(int rows, boolean trackRows) {
        long want = key.kind == RawKey.Kind.DENSE_FIXED ? (long) rows * key.stride : valueHint;
        int hint = (int) Math.min(want, MAX_PRESIZE);
        switch (key.dtype) {
            case INT64:
                int64s = new Int64Buffer(hint);
                break;
            case FLOAT32:
                floats = new Float32Buffer(hint);
                break;
            default:
                long bytesWanted = hint * lastBytes / lastValues + 16;
                bytes = new BytesBuffer(hint, (int) Math.min(bytesWanted, MAX_PRESIZE * 8L));
        }
        if (trackRows && rowState.length < rows) {
            rowState = new byte[rows];
        }
        if (key.kind != RawKey.Kind.DENSE_FIXED) {
            if (ends == null || ends.length < rows + 1) {
                ends = new int[rows + 1];
            }
            ends[0] = 0;
        }
        seenRow = -1;
        noKindRow = -1;
        minibatchBase = 0;
    }

    public int size() {
        switch (key.dtype) {
            case INT64:
                return int64s.size();
            case FLOAT32:
                return floats.size();
            default:
                return bytes.size();
        }
    }

    void truncate(int n) {
        switch (key.dtype) {
            case INT64:
                int64s.truncate(n);
                break;
            case FLOAT32:
                floats.truncate(n);
                break;
            default:
                bytes.truncate(n);
        }
    }

    /** Rolls back to the state before row {@code row}. */
    public void rollback(int row) {
        truncate(key.kind == RawKey.Kind.DENSE_FIXED ? row * key.stride : ends[row]);
        if (seenRow >= row) {
            seenRow = -1;
        }
        if (noKindRow >= row) {
            noKindRow = -1;
        }
    }

    public void appendDefault(DefaultValue d) {
        int n = d.size();
        switch (key.dtype) {
            case INT64:
                for (int i = 0; i < n; i++) {
                    int64s.add(d.int64(i));
                }
                break;
            case FLOAT32:
                for (int i = 0; i < n; i++) {
                    floats.add(d.float32(i));
                }
                break;
            default:
                for (int i = 0; i < n; i++) {
                    byte[] b = d.bytesAt(i);
                    bytes.add(b, 0, b.length);
                }
        }
    }

    /** Hands the values over as a column and remembers their size for the next batch. */
    public Column finish() {
        valueHint = Math.max(64, size());
        if (bytes != null && bytes.size() > 0) {
            lastBytes = bytes.offsets()[bytes.size()];
            lastValues = bytes.size();
        }
        return Column.of(key.dtype, int64s, floats, bytes);
    }
}
