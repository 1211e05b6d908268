package io.tfstream.parse.example;

import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.KeyTable;
import io.tfstream.parse.wire.ScalarFeature;
import io.tfstream.parse.wire.WireCursor;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Splits a serialized {@code tensorflow.Example} into its feature-map entries as TensorFlow's
 * {@code ParseExample} does (concatenated Examples merge, unknown top-level fields are skipped, a
 * map entry holds exactly two key/value fields in any order) and keeps the entries whose key is
 * requested, in wire order, as (key id, feature start, feature end). Stops with {@link
 * #TOO_MANY_ENTRIES} once more map entries than allowed were seen, before storing more.
 */
public final class ExampleScanner {
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    public static final int OK = 0;
    static final int MALFORMED = -1;
    public static final int TOO_MANY_ENTRIES = -2;

    /** A {@link Visitor} stopped the scan. */
    static final int ABORTED = -3;

    /**
     * Receives each requested entry as soon as the scan finds it, instead of it being stored: the
     * one-pass path of {@link ExampleBatchParser}.
     */
    public interface Visitor {
        /**
         * Takes the entry with feature bytes {@code buf[start, end)}; false stops the scan with
         * {@link #ABORTED}.
         */
        boolean visit(int keyId, byte[] buf, int start, int end);

        /**
         * Takes an entry whose key is not requested, key bytes {@code buf[keyStart, keyStart +
         * keyLen)}; false stops the scan with {@link #ABORTED}. Ignored unless overridden.
         */
        default boolean visitUnrequested(byte[] buf, int keyStart, int keyLen, int start, int end) {
            return true;
        }
    }

    int[] keyId = new int[16];
    int[] featureStart = new int[16];
    int[] featureEnd = new int[16];

    /** Requested entries found. */
    int count;

    /** All map entries, requested or not. */
    public int totalEntries;

    private final WireCursor c = new WireCursor();
    private final KeyTable keys;
    private int maxEntries;
    private Visitor visitor;

    /** The visitor when it is the parser's one-pass row, whose commonest case is inlined below. */
    private DirectRow direct;

    private boolean aborted;

    /** The layouts of the entries taken at each position, for the next record's entries. */
    private final EntryLayouts layouts = new EntryLayouts();

    public ExampleScanner(KeyTable keys) {
        this.keys = keys;
    }

    /**
     * Returns {@link #OK}, {@link #MALFORMED} when TensorFlow would report "Could not parse example
     * input", or {@link #TOO_MANY_ENTRIES} when the record has more than {@code maxEntries} map
     * entries ({@link #totalEntries} then holds the count so far).
     */
    public int scan(byte[] buf, int off, int len, int maxEntries) {
        return scan(buf, off, len, maxEntries, null);
    }

    /**
     * As {@link #scan(byte[], int, int, int)}, but with a {@code visitor} every requested entry
     * goes to it in wire order instead of into the entry arrays, and the scan returns {@link
     * #ABORTED} as soon as the visitor refuses one. Structural errors before that point are
     * reported as without a visitor; after it the record is not looked at further.
     */
    public int scan(byte[] buf, int off, int len, int maxEntries, Visitor visitor) {
        count = 0;
        totalEntries = 0;
        this.maxEntries = maxEntries;
        this.visitor = visitor;
        this.direct = visitor instanceof DirectRow ? (DirectRow) visitor : null;
        aborted = false;
        WireCursor c = this.c;
        c.reset(buf, off, off + len);
        while (!c.atEnd()) {
            if (c.expectTag(0x0a)) {
                if (!features(c)) {
                    if (aborted) {
                        return ABORTED;
                    }
                    return totalEntries > maxEntries ? TOO_MANY_ENTRIES : MALFORMED;
                }
            } else if (!c.skipExtraneousTag()) {
                return MALFORMED;
            }
        }
        return OK;
    }

    private boolean features(WireCursor c) {
        if (!c.readVarint32()) {
            return false;
        }
        int outer = c.pushLimit(c.value);
        byte[] b = c.buf;
        int p = c.pos;
        int lim = c.limit;
        DirectRow d = direct;
        long[] h = layouts.words;
        while (p < lim) {
            int at = totalEntries;
            // The entry has the tags, key and kind of one the checks below took at this position
            // before, with lengths in the same relation: the same decision without them.
            int m = at * EntryLayouts.WORDS;
            if (d != null && at < maxEntries && m < h.length && p + 16 <= b.length) {
                // The next entry's position depends on one load, the entry length byte; the
                // checks hang off it (a longer chain made the projection's skipping slower).
                long meta = h[m + 5];
                long w = (long) LE_LONG.get(b, p);
                int entryLen = (int) (w >>> 8) & 0xff;
                int lastLen = entryLen - (int) (meta >>> 32);
                if (meta != 0
                        && entryLen < 0x80
                        && lastLen >= 0
                        && w == h[m] + lastLen * h[m + 2]
                        && ((long) LE_LONG.get(b, p + 8) & h[m + 4])
                                == h[m + 1] + lastLen * h[m + 3]) {
                    int id = (int) meta;
                    int end = p + 2 + entryLen;
                    int vp = end - lastLen;
                    if (end <= lim) {
                        if (id < 0) {
                            if (d.unrequested == null) {
                                totalEntries = at + 1;
                                p = end;
                                continue;
                            }
                        } else {
                            KeyColumn col = d.columns[id];
                            int row = d.row;
                            int size;
                            if (col.seenRow != row
                                    && lastLen > 0
                                    && (size =
                                                    d.append(
                                                            col,
                                                            b,
                                                            vp - ScalarFeature.PAYLOAD,
                                                            end,
                                                            true))
                                            >= 0) {
                                totalEntries = at + 1;
                                d.took(col, size);
                                p = end;
                                continue;
                            }
                        }
                    }
                }
            }
            // The canonical entry (see canonicalValueStart) with a one- or two-byte entry length,
            // read without the cursor; any other layout goes through entry().
            if (b[p] == 0x0a && p + 2 < lim) {
                int q = p + 1;
                int len = b[q++];
                if (len < 0 && b[q] >= 0) {
                    len = (len & 0x7f) | (b[q++] << 7);
                }
                int end = q + len;
                if (len >= 0 && end <= lim) {
                    int value = canonicalValueStart(b, q, end);
                    if (value >= 0) {
                        int keyStart = q + 2;
                        int keyLen = b[q + 1];
                        // The one-pass row's commonest entry, written out here rather than called:
                        // a remembered short key and a one-value feature seen first in the row
                        // (DirectRow.visit's shortcut, KeyTable.findAt's first branch). Calls
                        // from this loop were inlined or not depending on which method the JIT
                        // compiled first, which made the parse 1.5x slower in some JVM runs.
                        KeyTable t = keys;
                        if (d != null
                                && at < maxEntries
                                && keyLen <= 8
                                && keyStart + 8 <= b.length
                                && at < t.memoLen.length
                                && t.memoLen[at] == keyLen
                                && ((long) LE_LONG.get(b, keyStart) & KeyTable.WORD_MASKS[keyLen])
                                        == t.memoLast[at]) {
                            int id = t.memoId[at];
                            if (id < 0) {
                                if (d.unrequested == null) {
                                    totalEntries = at + 1;
                                    h = layouts.remember(at, b, p, value, keyLen, 2, -1);
                                    p = end;
                                    continue;
                                }
                            } else {
                                KeyColumn col = d.columns[id];
                                int row = d.row;
                                if (col.seenRow != row && value < end && b[value] == col.kindByte) {
                                    int inner = end - value - ScalarFeature.PAYLOAD;
                                    boolean oneField =
                                            inner >= 1
                                                    && inner <= 127
                                                    && b[value + 1] == inner + 2
                                                    && b[value + 2] == 0x0a
                                                    && b[value + 3] == inner;
                                    int size = d.append(col, b, value, end, oneField);
                                    if (size >= 0) {
                                        totalEntries = at + 1;
                                        d.took(col, size);
                                        if (oneField) {
                                            h =
                                                    layouts.remember(
                                                            at,
                                                            b,
                                                            p,
                                                            value + ScalarFeature.PAYLOAD,
                                                            keyLen,
                                                            4,
                                                            id);
                                        }
                                        p = end;
                                        continue;
                                    }
                                }
                            }
                            // The key is known: no second lookup.
                            if (!known(id, b, keyStart, keyLen, value, end - value)) {
                                return false;
                            }
                            p = end;
                            continue;
                        }
                        if (!found(b, keyStart, keyLen, value, end - value)) {
                            return false;
                        }
                        p = end;
                        continue;
                    }
                }
            }
            c.pos = p;
            if (!c.expectTag(0x0a) || !entry(c)) {
                return false;
            }
            p = c.pos;
        }
        c.pos = p;
        c.popLimit(outer);
        return true;
    }

    private boolean entry(WireCursor c) {
        if (!c.readVarint32()) {
            return false;
        }
        if (c.value <= c.remaining()) {
            int end = c.pos + (int) c.value;
            int value = canonicalValueStart(c.buf, c.pos, end);
            if (value >= 0) {
                int keyStart = c.pos + 2;
                int keyLen = c.buf[c.pos + 1];
                c.pos = end;
                return found(c.buf, keyStart, keyLen, value, end - value);
            }
        }
        int outer = c.pushLimit(c.value);
        int keyStart = 0;
        int keyLen = 0;
        int fStart = 0;
        int fLen = 0;
        for (int n = 0; n < 2; n++) {
            int tag = c.readTag();
            if (tag == 0x0a) {
                if (!string(c)) {
                    return false;
                }
                keyStart = c.pos - (int) c.value;
                keyLen = (int) c.value;
            } else if (tag == 0x12) {
                if (!string(c)) {
                    return false;
                }
                fStart = c.pos - (int) c.value;
                fLen = (int) c.value;
            } else {
                return false;
            }
        }
        if (!c.atEnd()) {
            return false;
        }
        c.popLimit(outer);
        return found(c.buf, keyStart, keyLen, fStart, fLen);
    }

    /**
     * The layout protobuf writers produce, checked without the general loop: key (tag 0x0a, length
     * below 128) then value (tag 0x12, length of one or two bytes) filling the entry {@code [p,
     * end)} exactly. Returns where the value starts, or -1 for any other layout (the general path
     * then decides).
     */
    private static int canonicalValueStart(byte[] b, int p, int end) {
        if (end - p < 4 || b[p] != 0x0a) {
            return -1;
        }
        int keyLen = b[p + 1];
        int q = p + 2 + keyLen;
        if (keyLen < 0 || q + 1 >= end || b[q] != 0x12) {
            return -1;
        }
        int len = b[q + 1];
        q += 2;
        if (len < 0) {
            if (q >= end || b[q] < 0) {
                return -1;
            }
            len = (len & 0x7f) | (b[q] << 7);
            q++;
        }
        return q + len == end ? q : -1;
    }

    /** Counts a map entry and keeps it when its key is requested. */
    private boolean found(byte[] buf, int keyStart, int keyLen, int fStart, int fLen) {
        if (totalEntries >= maxEntries) {
            totalEntries++;
            return false;
        }
        return known(
                keys.findAt(totalEntries, buf, keyStart, keyLen),
                buf,
                keyStart,
                keyLen,
                fStart,
                fLen);
    }

    /** As {@link #found}, with the key's id (or -1) already known and the entry within limits. */
    private boolean known(int id, byte[] buf, int keyStart, int keyLen, int fStart, int fLen) {
        totalEntries++;
        if (id >= 0) {
            if (visitor != null) {
                if (!visitor.visit(id, buf, fStart, fStart + fLen)) {
                    aborted = true;
                    return false;
                }
                return true;
            }
            if (count == keyId.length) {
                int n = count * 2;
                keyId = Arrays.copyOf(keyId, n);
                featureStart = Arrays.copyOf(featureStart, n);
                featureEnd = Arrays.copyOf(featureEnd, n);
            }
            keyId[count] = id;
            featureStart[count] = fStart;
            featureEnd[count] = fStart + fLen;
            count++;
        } else if (visitor != null
                && !visitor.visitUnrequested(buf, keyStart, keyLen, fStart, fStart + fLen)) {
            aborted = true;
            return false;
        }
        return true;
    }

    /** {@code ParseString}: a length-delimited string inside the current limit. */
    private static boolean string(WireCursor c) {
        if (!c.readVarint32()) {
            return false;
        }
        long len = c.value;
        if (len == 0) {
            return true;
        }
        if (len > c.remaining()) {
            return false;
        }
        c.pos += (int) len;
        return true;
    }
}
