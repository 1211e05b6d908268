package io.tfstream.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Maps feature-key bytes to a dense id with one hash probe and one comparison, without decoding the
 * key into a String. Keys of up to 8 bytes (the usual case) are loaded as one little-endian word
 * that both the hash and the comparison use. Keys are matched byte-exactly, as TensorFlow does.
 */
final class KeyTable {
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[][] keys;
    private final int[] lengths;
    private final long[] lastWords; // the last 1..8 bytes of each key as read by lastWord
    private final int[] slots; // id + 1, 0 = empty
    private final int mask;

    KeyTable(List<String> names) {
        keys = new byte[names.size()][];
        lengths = new int[names.size()];
        lastWords = new long[names.size()];
        int cap = Integer.highestOneBit(Math.max(4, names.size() * 4) - 1) << 1;
        slots = new int[cap];
        mask = cap - 1;
        for (int id = 0; id < names.size(); id++) {
            byte[] k = names.get(id).getBytes(StandardCharsets.UTF_8);
            keys[id] = k;
            lengths[id] = k.length;
            int tail = tailStart(0, k.length);
            lastWords[id] = lastWord(k, tail, k.length);
            int s = hash(k, 0, tail, lastWords[id], k.length) & mask;
            while (slots[s] != 0) {
                if (Arrays.equals(keys[slots[s] - 1], k)) {
                    throw new IllegalArgumentException("duplicate key " + names.get(id));
                }
                s = (s + 1) & mask;
            }
            slots[s] = id + 1;
        }
    }

    int size() {
        return keys.length;
    }

    /** The id of the key {@code buf[off, off+len)}, or -1 when it is not requested. */
    int find(byte[] buf, int off, int len) {
        int end = off + len;
        int tail = tailStart(off, end);
        long last = lastWord(buf, tail, end);
        int s = hash(buf, off, tail, last, len) & mask;
        while (true) {
            int e = slots[s];
            if (e == 0) {
                return -1;
            }
            int id = e - 1;
            if (lengths[id] == len
                    && lastWords[id] == last
                    && (len <= 8 || Arrays.equals(keys[id], 0, tail - off, buf, off, tail))) {
                return id;
            }
            s = (s + 1) & mask;
        }
    }

    /** Where the last word of {@code [off, end)} starts: the final 1..8 bytes (none if empty). */
    private static int tailStart(int off, int end) {
        return end - off <= 8 ? off : off + ((end - off - 1) & ~7);
    }

    /** {@code b[p, end)} (at most 8 bytes) as a little-endian long, zero-extended. */
    private static long lastWord(byte[] b, int p, int end) {
        int n = end - p;
        if (n == 8 || (n > 0 && p + 8 <= b.length)) {
            long w = (long) LE_LONG.get(b, p);
            return n == 8 ? w : w & ((1L << (n << 3)) - 1);
        }
        long w = 0;
        for (int i = 0; i < n; i++) {
            w |= (b[p + i] & 0xffL) << (i << 3);
        }
        return w;
    }

    private static int hash(byte[] b, int off, int tail, long last, int len) {
        long h = len * 0x9E3779B97F4A7C15L;
        for (int p = off; p < tail; p += 8) {
            h = (h ^ (long) LE_LONG.get(b, p)) * 0xff51afd7ed558ccdL;
        }
        h = (h ^ last) * 0xc4ceb9fe1a85ec53L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 41));
    }
}
