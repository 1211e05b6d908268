package io.tfstream.parse;

import io.tfstream.spec.DType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Collects one record's feature values by slot and writes them as {@code tf.train.Example} wire
 * bytes directly (no protobuf objects): {@code Example.features} of map entries in slot order,
 * int64 and float lists packed, as protobuf-java writes them. Each value is encoded once, when it
 * is added, into its slot's list body (int64 varints, little-endian floats, length-prefixed bytes
 * elements), so that writing the Example is sizes per feature and array copies, no pass over the
 * values. Buffers are reused across records; only the returned array is new. Not thread-safe.
 */
public final class ExampleBuilder implements FeatureSink {
    private final DType[] types;
    // Per slot: the map entry's bytes up to the Feature's length: tag and key, tag of the value.
    private final byte[][] heads;
    private final boolean[] present;
    private final int[] counts;
    private final byte[][] data;
    private final int[] used;
    private final int[] entrySizes;
    private byte[] out = new byte[256];
    private int pos;

    /** A builder of the features {@code names} (slot order), of types {@code dtypes}. */
    public ExampleBuilder(List<String> names, List<DType> dtypes) {
        int n = names.size();
        types = new DType[n];
        heads = new byte[n][];
        present = new boolean[n];
        counts = new int[n];
        data = new byte[n][];
        used = new int[n];
        entrySizes = new int[n];
        for (int i = 0; i < n; i++) {
            types[i] = dtypes.get(i);
            byte[] key = names.get(i).getBytes(StandardCharsets.UTF_8);
            byte[] head = new byte[2 + varintSize(key.length) + key.length];
            int p = 0;
            head[p++] = 0x0A; // MapEntry.key
            p = putVarint(head, p, key.length);
            System.arraycopy(key, 0, head, p, key.length);
            head[head.length - 1] = 0x12; // MapEntry.value: Feature
            heads[i] = head;
            data[i] = new byte[32];
        }
    }

    @Override
    public void reset() {
        Arrays.fill(present, false);
    }

    @Override
    public boolean start(int slot) {
        if (present[slot]) {
            return false;
        }
        present[slot] = true;
        counts[slot] = 0;
        used[slot] = 0;
        return true;
    }

    private byte[] room(int slot, int extra) {
        byte[] d = data[slot];
        int need = used[slot] + extra;
        if (need > d.length) {
            d = data[slot] = Arrays.copyOf(d, Math.max(need, d.length * 2));
        }
        return d;
    }

    @Override
    public void addInt64(int slot, long v) {
        byte[] d = room(slot, 10);
        int p = used[slot];
        while ((v & ~0x7FL) != 0) {
            d[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        d[p++] = (byte) v;
        used[slot] = p;
        counts[slot]++;
    }

    @Override
    public void addFloat(int slot, float v) {
        byte[] d = room(slot, 4);
        int p = used[slot];
        int bits = Float.floatToRawIntBits(v);
        d[p] = (byte) bits;
        d[p + 1] = (byte) (bits >>> 8);
        d[p + 2] = (byte) (bits >>> 16);
        d[p + 3] = (byte) (bits >>> 24);
        used[slot] = p + 4;
        counts[slot]++;
    }

    /** Appends one bytes value, as its {@code BytesList.value} element. */
    @Override
    public void addBytes(int slot, byte[] b, int off, int len) {
        byte[] d = room(slot, 6 + len);
        int p = used[slot];
        d[p++] = 0x0A; // BytesList.value
        p = putVarint(d, p, len);
        System.arraycopy(b, off, d, p, len);
        used[slot] = p + len;
        counts[slot]++;
    }

    /** The Example of the present features, in a new array. */
    public byte[] toBytes() {
        int n = present.length;
        long featuresSize = 0;
        for (int i = 0; i < n; i++) {
            if (present[i]) {
                int entry = entrySize(i);
                entrySizes[i] = entry;
                featuresSize += 1 + varintSize(entry) + entry;
            }
        }
        if (featuresSize > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("Example over 2 GiB");
        }
        int total = featuresSize == 0 ? 0 : 1 + varintSize((int) featuresSize) + (int) featuresSize;
        if (out.length < total) {
            out = new byte[Math.max(total, out.length * 2)];
        }
        pos = 0;
        if (total > 0) {
            out[pos++] = 0x0A; // Example.features
            pos = putVarint(out, pos, (int) featuresSize);
            for (int i = 0; i < n; i++) {
                if (present[i]) {
                    writeEntry(i);
                }
            }
        }
        return Arrays.copyOf(out, total);
    }

    /** The list message's size: the packed field (int64, float) or the elements (bytes). */
    private int listSize(int i) {
        int u = used[i];
        return types[i] == DType.STRING || u == 0 ? u : 1 + varintSize(u) + u;
    }

    /** Size of the map entry of slot i. */
    private int entrySize(int i) {
        int list = listSize(i);
        int feature = 1 + varintSize(list) + list;
        return heads[i].length + varintSize(feature) + feature;
    }

    private void writeEntry(int i) {
        byte[] o = out;
        int p = pos;
        o[p++] = 0x0A; // Features.feature (map entry)
        p = putVarint(o, p, entrySizes[i]);
        p = copy(heads[i], head(i), o, p);
        int list = listSize(i);
        p = putVarint(o, p, 1 + varintSize(list) + list);
        int u = used[i];
        switch (types[i]) {
            case INT64 -> o[p++] = 0x1A; // Feature.int64_list
            case FLOAT32 -> o[p++] = 0x12; // Feature.float_list
            default -> o[p++] = 0x0A; // Feature.bytes_list
        }
        p = putVarint(o, p, list);
        if (types[i] != DType.STRING && u > 0) {
            o[p++] = 0x0A; // packed values
            p = putVarint(o, p, u);
        }
        pos = copy(data[i], u, o, p);
    }

    private int head(int i) {
        return heads[i].length;
    }

    /** Copies {@code src[0, n)} to {@code o} at {@code p}: a loop for the usual few bytes. */
    private static int copy(byte[] src, int n, byte[] o, int p) {
        if (n > 16) {
            System.arraycopy(src, 0, o, p, n);
        } else {
            for (int k = 0; k < n; k++) {
                o[p + k] = src[k];
            }
        }
        return p + n;
    }

    private static int putVarint(byte[] o, int p, int v) {
        while ((v & ~0x7F) != 0) {
            o[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        o[p++] = (byte) v;
        return p;
    }

    static int varintSize(int v) {
        if ((v & (~0 << 7)) == 0) {
            return 1;
        }
        if ((v & (~0 << 14)) == 0) {
            return 2;
        }
        if ((v & (~0 << 21)) == 0) {
            return 3;
        }
        if ((v & (~0 << 28)) == 0) {
            return 4;
        }
        return 5;
    }
}
