package io.tfstream.parse.wire;

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
 *
 * <p>Records of one stream nearly always list their keys in the same order, so {@link #findAt}
 * first compares the key with the one found at the same entry position of an earlier record
 * (requested or not) and only hashes when they differ. The remembered keys take a bounded amount of
 * memory that is allocated once: positions past {@link #MEMO_POSITIONS} are not remembered, and
 * when longer keys no longer fit the byte pool it is cleared and refilled.
 */
public final class KeyTable {
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[][] keys;
    private final int[] lengths;
    private final long[] lastWords; // the last 1..8 bytes of each key as read by lastWord
    private final int[] slots; // id + 1, 0 = empty
    private final int mask;

    /** {@code WORD_MASKS[n]}: the low {@code n} bytes of a word. */
    public static final long[] WORD_MASKS = new long[9];

    static {
        for (int n = 1; n <= 8; n++) {
            WORD_MASKS[n] = -1L >>> (64 - 8 * n);
        }
    }

    /** Entry positions whose key is remembered. */
    public static final int MEMO_POSITIONS = 4096;

    /** Bytes kept for the leading parts of keys longer than eight bytes. */
    static final int MEMO_POOL_BYTES = 1 << 16;

    // Read directly by ExampleScanner's entry loop (the same test as findAt's first branch).
    public int[] memoLen = new int[0]; // -1 = nothing remembered
    public long[] memoLast = new long[0];
    public int[] memoId = new int[0]; // -1 = not requested
    private int[] memoOff = new int[0]; // keys over 8 bytes: where their leading bytes are pooled
    private byte[] memoPool = new byte[0];
    private int memoPoolSize;

    public KeyTable(List<String> names) {
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
        return lookup(buf, off, tail, lastWord(buf, tail, end), len);
    }

    /**
     * As {@link #find}, for the key of the map entry at {@code position} (0-based) of a record:
     * when it equals the key seen at that position before, its id is known without hashing.
     */
    public int findAt(int position, byte[] buf, int off, int len) {
        if (len <= 8 && position < memoLen.length && memoLen[position] == len) {
            // The usual case in a few instructions: a short key, loaded as one masked word.
            long word =
                    off + 8 <= buf.length
                            ? (long) LE_LONG.get(buf, off) & WORD_MASKS[len]
                            : lastWord(buf, off, off + len);
            if (word == memoLast[position]) {
                return memoId[position];
            }
        }
        return findAtSlow(position, buf, off, len);
    }

    private int findAtSlow(int position, byte[] buf, int off, int len) {
        int end = off + len;
        int tail = tailStart(off, end);
        long last = lastWord(buf, tail, end);
        if (position < memoLen.length) {
            if (memoLen[position] == len
                    && memoLast[position] == last
                    && (len <= 8
                            || Arrays.equals(
                                    memoPool,
                                    memoOff[position],
                                    memoOff[position] + tail - off,
                                    buf,
                                    off,
                                    tail))) {
                return memoId[position];
            }
        } else if (position < MEMO_POSITIONS) {
            growMemo(position);
        } else {
            return lookup(buf, off, tail, last, len);
        }
        int id = lookup(buf, off, tail, last, len);
        remember(position, buf, off, tail, last, len, id);
        return id;
    }

    private void remember(int position, byte[] buf, int off, int tail, long last, int len, int id) {
        int prefix = tail - off;
        if (prefix > 0) {
            if (memoPoolSize + prefix > memoPool.length) {
                if (memoPool.length < MEMO_POOL_BYTES) {
                    memoPool =
                            Arrays.copyOf(
                                    memoPool,
                                    Math.max(
                                            memoPoolSize + prefix,
                                            Math.min(MEMO_POOL_BYTES, memoPool.length * 2 + 256)));
                }
                if (memoPoolSize + prefix > memoPool.length) {
                    Arrays.fill(memoLen, -1); // full: forget every position and refill
                    memoPoolSize = 0;
                    if (prefix > memoPool.length) {
                        return; // a key too long to remember
                    }
                }
            }
            System.arraycopy(buf, off, memoPool, memoPoolSize, prefix);
            memoOff[position] = memoPoolSize;
            memoPoolSize += prefix;
        }
        memoLen[position] = len;
        memoLast[position] = last;
        memoId[position] = id;
    }

    private void growMemo(int position) {
        int n = Math.min(MEMO_POSITIONS, Math.max(64, Integer.highestOneBit(position) * 2));
        int old = memoLen.length;
        memoLen = Arrays.copyOf(memoLen, n);
        Arrays.fill(memoLen, old, n, -1);
        memoLast = Arrays.copyOf(memoLast, n);
        memoId = Arrays.copyOf(memoId, n);
        memoOff = Arrays.copyOf(memoOff, n);
    }

    private int lookup(byte[] buf, int off, int tail, long last, int len) {
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
