package io.tfstream.parse.example;

import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.wire.FeatureListDecoder;
import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.PackedList;
import io.tfstream.parse.wire.RawKey;
import io.tfstream.parse.wire.ScalarFeature;
import io.tfstream.parse.wire.WireCursor;

/**
 * The one-pass path of {@link ExampleBatchParser}: decodes each requested entry of a record as the
 * scanner finds it. It gives the kernel's result whenever every requested key occurs at most once
 * (a dense key also any number of times as {@code Feature{}}) and nothing is wrong with the record,
 * which is almost always. Anything else — a repeated key, a kind that does not match, a value count
 * or list TensorFlow refuses — stops it; the parser then rolls the row back and runs the kernel's
 * last-wins pass with its exact error precedence.
 *
 * <p>The commonest entry, a one-value feature of a one-value column seen for the first time in the
 * row, is also handled inside {@link ExampleScanner}'s entry loop without calling this class (see
 * there why); {@link #visit} is the same rule for the entries that loop hands over.
 */
final class DirectRow implements ExampleScanner.Visitor {
    final KeyColumn[] columns;
    private final ParseLimits limits;
    private final WireCursor cursor = new WireCursor();

    /** The one-value shortcut applies: at least one value and one byte per value allowed. */
    final boolean scalars;

    final int maxBytesPerValue;

    final int maxValuesPerFeature;

    /** The row being parsed. */
    int row;

    /** Keys given a value (or an empty list) in this row. */
    int seen;

    /** When not null, rows holding keys the spec does not request are marked here. */
    boolean[] unrequested;

    DirectRow(KeyColumn[] columns, ParseLimits limits) {
        this.columns = columns;
        this.limits = limits;
        this.scalars = limits.maxValuesPerFeature() >= 1 && limits.maxBytesPerValue() >= 1;
        this.maxBytesPerValue = limits.maxBytesPerValue();
        this.maxValuesPerFeature = limits.maxValuesPerFeature();
    }

    /** A one-value feature appended directly, anything else through {@link #visitOther}. */
    @Override
    public boolean visit(int keyId, byte[] buf, int start, int end) {
        KeyColumn col = columns[keyId];
        int row = this.row;
        if (start == end
                || !col.scalarShortcut
                || !scalars
                || buf[start] != col.kindByte
                || col.seenRow == row) {
            return visitOther(col, buf, start, end);
        }
        int inner = ScalarFeature.payloadLength(buf, start, end);
        if (inner < 0) {
            return visitOther(col, buf, start, end);
        }
        int p = start + ScalarFeature.PAYLOAD;
        int size;
        switch (col.kindByte) {
            case 0x1a:
                if (!ScalarFeature.appendInt64(col.int64s, buf, p, end)) {
                    return visitOther(col, buf, start, end);
                }
                size = col.int64s.size();
                break;
            case 0x12:
                if (inner != 4) {
                    return visitOther(col, buf, start, end);
                }
                col.floats.add(ScalarFeature.floatAt(buf, p));
                size = col.floats.size();
                break;
            default:
                if (inner > maxBytesPerValue) {
                    return visitOther(col, buf, start, end);
                }
                col.bytes.add(buf, p, inner);
                size = col.bytes.size();
        }
        took(col, size);
        return true;
    }

    /**
     * Appends the value of the feature {@code buf[start, end)} (kind byte included, the column's)
     * when it is the one-value layout ({@code oneValue}, {@link ScalarFeature}) or a packed list of
     * a VarLen or Ragged key ({@link PackedList}); returns the column's new size, or -1 with
     * nothing appended. The scanner's loop calls this for the entries it decides itself.
     */
    int append(KeyColumn col, byte[] buf, int start, int end, boolean oneValue) {
        int size = -1;
        if (oneValue && col.scalarShortcut && scalars) {
            int p = start + ScalarFeature.PAYLOAD;
            size = ScalarFeature.appendPayload(col, buf, p, end - p, maxBytesPerValue);
        }
        if (size < 0
                && !col.dense
                && PackedList.decode(col, buf, start, end, maxValuesPerFeature)
                        != PackedList.DECLINED) {
            size = col.size();
        }
        return size;
    }

    /** Marks {@code col} given its value in this row, {@code size} values in its column now. */
    void took(KeyColumn col, int size) {
        col.seenRow = row;
        seen++;
        if (!col.dense) {
            col.ends[row + 1] = size;
        }
    }

    @Override
    public boolean visitUnrequested(byte[] buf, int keyStart, int keyLen, int start, int end) {
        if (unrequested != null) {
            unrequested[row] = true;
        }
        return true;
    }

    /** Any other entry: empty features, lists, fixed shapes, repeats and anything wrong. */
    private boolean visitOther(KeyColumn col, byte[] buf, int start, int end) {
        int row = this.row;
        if (start == end) { // Feature{}: no kind
            col.noKindRow = row;
            if (col.dense) {
                return true; // an earlier entry or the default applies
            }
            if (col.seenRow == row) {
                return false;
            }
            col.seenRow = row;
            seen++;
            col.ends[row + 1] = col.size();
            return true;
        }
        if (buf[start] != col.kindByte || col.seenRow == row) {
            return false;
        }
        col.seenRow = row;
        seen++;
        RawKey key = col.key;
        if (!col.dense) {
            if (PackedList.decode(col, buf, start, end, maxValuesPerFeature)
                    != PackedList.DECLINED) {
                col.ends[row + 1] = col.size();
                return true;
            }
            if (decodeQuietly(col, buf, start, end, FeatureListDecoder.NO_CAP) < 0) {
                return false;
            }
            col.ends[row + 1] = col.size();
            return true;
        }
        if (key.kind == RawKey.Kind.DENSE_FIXED) {
            return decodeQuietly(col, buf, start, end, key.stride) == key.stride;
        }
        if (decodeQuietly(col, buf, start, end, FeatureListDecoder.NO_CAP) < 0
                || (col.size() - col.minibatchBase) % key.stride != 0) {
            return false;
        }
        col.ends[row + 1] = col.size();
        return true;
    }

    private int decodeQuietly(KeyColumn col, byte[] buf, int start, int end, int cap) {
        WireCursor c = cursor;
        c.reset(buf, start + 1, end);
        return FeatureListDecoder.decodeInto(c, col, cap, limits);
    }
}
