package io.tfstream.parse.example;

import io.tfstream.parse.wire.KeyTable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What {@link ExampleScanner} remembers per entry position of a record: the layout of an entry its
 * checks took there (a one-value feature of a requested key, or an entry skipped), so that the same
 * position of the next record is decided by comparing two words instead of checking each tag and
 * length. The lengths in an entry are one byte each and grow together with the last of them (the
 * value's length for a skipped entry, the field's for a one-value feature), so a layout is kept as
 * its bytes less that length times a one in each length byte: an entry matches when its bytes equal
 * the pattern plus its own last length times the ones. Positions past {@link
 * KeyTable#MEMO_POSITIONS} are not remembered.
 */
final class EntryLayouts {
    /**
     * Words per position in {@link #words}: the first 8 bytes of the pattern, the next 0 to 8
     * (masked), the ones of each, the mask of the second, and (key id or -1, entry length less the
     * last length); all zero when nothing is remembered.
     */
    static final int WORDS = 6;

    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Read directly by the scanner's entry loop. */
    long[] words = new long[0];

    /**
     * Remembers the entry at {@code p} for its position: its bytes up to {@code headerEnd} (the
     * value's payload for a one-value feature, the value for an entry skipped), with the {@code
     * lengths} one-byte lengths in it (entry, value, and the feature's list and field) stored as
     * their difference to the last, which the check adds back. Only when those bytes are 8 to 16
     * and the lengths one byte each; returns the (possibly grown) table.
     */
    long[] remember(int at, byte[] b, int p, int headerEnd, int keyLen, int lengths, int id) {
        int len = headerEnd - p;
        long[] h = words;
        if (len < 8 || len > 16 || b[p + 1] < 0 || p + 16 > b.length) {
            return h;
        }
        int m = at * WORDS;
        if (m >= h.length) {
            if (at >= KeyTable.MEMO_POSITIONS) {
                return h;
            }
            int positions =
                    Math.min(KeyTable.MEMO_POSITIONS, Math.max(64, Integer.highestOneBit(at) * 2));
            h = words = Arrays.copyOf(h, positions * WORDS);
        }
        // The lengths sit at byte 1 (entry), 5 + key (value) and, in a one-value feature, at
        // 7 + key (list) and 9 + key (field, the last byte): each is the last plus a constant.
        long ones = 1L << 8;
        long onesHigh = 0;
        for (int i = 0; i < lengths - 2; i++) {
            int offset = 5 + keyLen + 2 * i;
            if (offset < 8) {
                ones |= 1L << (offset << 3);
            } else {
                onesHigh |= 1L << ((offset - 8) << 3);
            }
        }
        int last = len - 1;
        if (last < 8) {
            ones |= 1L << (last << 3);
        } else {
            onesHigh |= 1L << ((last - 8) << 3);
        }
        long lastLen = b[p + last] & 0xff;
        long mask = KeyTable.WORD_MASKS[len - 8];
        h[m] = (long) LE_LONG.get(b, p) - lastLen * ones;
        h[m + 1] = ((long) LE_LONG.get(b, p + 8) & mask) - lastLen * onesHigh;
        h[m + 2] = ones;
        h[m + 3] = onesHigh;
        h[m + 4] = mask;
        h[m + 5] = (id & 0xffffffffL) | (b[p + 1] - lastLen) << 32;
        return h;
    }
}
