package io.tfstream.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Maps feature-key bytes to a dense id with one hash probe and one vectorised byte comparison,
 * without decoding the key into a String. Keys are matched byte-exactly, as TensorFlow does.
 */
final class KeyTable {
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[][] keys;
    private final int[] slots; // id + 1, 0 = empty
    private final int mask;

    KeyTable(List<String> names) {
        keys = new byte[names.size()][];
        int cap = Integer.highestOneBit(Math.max(4, names.size() * 4) - 1) << 1;
        slots = new int[cap];
        mask = cap - 1;
        for (int id = 0; id < names.size(); id++) {
            byte[] k = names.get(id).getBytes(StandardCharsets.UTF_8);
            keys[id] = k;
            int s = hash(k, 0, k.length) & mask;
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
        int s = hash(buf, off, len) & mask;
        while (true) {
            int e = slots[s];
            if (e == 0) {
                return -1;
            }
            byte[] k = keys[e - 1];
            if (k.length == len && Arrays.equals(k, 0, len, buf, off, off + len)) {
                return e - 1;
            }
            s = (s + 1) & mask;
        }
    }

    private static int hash(byte[] b, int off, int len) {
        long h = len * 0x9E3779B97F4A7C15L;
        int end = off + len;
        int p = off;
        while (end - p >= 8) {
            h = (h ^ (long) LE_LONG.get(b, p)) * 0xff51afd7ed558ccdL;
            p += 8;
        }
        long tail = 0;
        for (int i = 0; p < end; i += 8, p++) {
            tail |= (b[p] & 0xffL) << i;
        }
        h = (h ^ tail) * 0xc4ceb9fe1a85ec53L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 41));
    }
}
