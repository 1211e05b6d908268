package io.tfstream.convert;

import io.tfstream.spec.DType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Collects one record's feature values by slot and writes them as {@code tf.train.Example} wire
 * bytes directly (no protobuf objects): {@code Example.features} of map entries in slot order,
 * int64 and float lists packed, as protobuf-java writes them. Buffers are reused across records;
 * only the returned array is new. Not thread-safe.
 */
final class ExampleBuilder {
    private final ConvertFeatures features;
    private final byte[][] keys;
    private final boolean[] present;
    private final int[] counts;
    private final long[][] ints;
    private final float[][] floats;
    private final byte[][] bytes;
    private final int[][] bytesEnds;
    private final int[] listSizes;
    private final int[] packedSizes;
    private byte[] out = new byte[256];
    private int pos;

    ExampleBuilder(ConvertFeatures features) {
        this.features = features;
        int n = features.size();
        keys = new byte[n][];
        present = new boolean[n];
        counts = new int[n];
        ints = new long[n][];
        floats = new float[n][];
        bytes = new byte[n][];
        bytesEnds = new int[n][];
        listSizes = new int[n];
        packedSizes = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = features.name(i).getBytes(StandardCharsets.UTF_8);
            switch (features.type(i)) {
                case INT64 -> ints[i] = new long[4];
                case FLOAT32 -> floats[i] = new float[4];
                case STRING -> {
                    bytes[i] = new byte[32];
                    bytesEnds[i] = new int[4];
                }
            }
        }
    }

    /** Starts a record: no feature present. */
    void reset() {
        Arrays.fill(present, false);
    }

    DType type(int slot) {
        return features.type(slot);
    }

    /**
     * Marks {@code slot} present with an empty list; false when it already was (the same feature
     * twice in one record).
     */
    boolean start(int slot) {
        if (present[slot]) {
            return false;
        }
        present[slot] = true;
        counts[slot] = 0;
        return true;
    }

    void addInt(int slot, long v) {
        int c = counts[slot];
        if (c == ints[slot].length) {
            ints[slot] = Arrays.copyOf(ints[slot], c * 2);
        }
        ints[slot][c] = v;
        counts[slot] = c + 1;
    }

    void addFloat(int slot, float v) {
        int c = counts[slot];
        if (c == floats[slot].length) {
            floats[slot] = Arrays.copyOf(floats[slot], c * 2);
        }
        floats[slot][c] = v;
        counts[slot] = c + 1;
    }

    void addBytes(int slot, byte[] b, int off, int len) {
        int c = counts[slot];
        int[] ends = bytesEnds[slot];
        if (c == ends.length) {
            ends = bytesEnds[slot] = Arrays.copyOf(ends, c * 2);
        }
        int start = c == 0 ? 0 : ends[c - 1];
        int end = start + len;
        if (end > bytes[slot].length) {
            bytes[slot] = Arrays.copyOf(bytes[slot], Math.max(end, bytes[slot].length * 2));
        }
        System.arraycopy(b, off, bytes[slot], start, len);
        ends[c] = end;
        counts[slot] = c + 1;
    }

    /**
     * Appends the base64 text {@code b[off, off + len)} decoded ({@link Base64Bytes}) as one value.
     *
     * @throws IllegalArgumentException when the text is not base64
     */
    void addBase64(int slot, byte[] b, int off, int len) {
        int c = counts[slot];
        int[] ends = bytesEnds[slot];
        if (c == ends.length) {
            ends = bytesEnds[slot] = Arrays.copyOf(ends, c * 2);
        }
        int start = c == 0 ? 0 : ends[c - 1];
        int max = start + Base64Bytes.maxDecoded(len);
        if (max > bytes[slot].length) {
            bytes[slot] = Arrays.copyOf(bytes[slot], Math.max(max, bytes[slot].length * 2));
        }
        ends[c] = start + Base64Bytes.decode(b, off, len, bytes[slot], start);
        counts[slot] = c + 1;
    }

    /** The Example of the present features. */
    byte[] toBytes() {
        int n = present.length;
        long featuresSize = 0;
        for (int i = 0; i < n; i++) {
            if (present[i]) {
                int entry = entrySize(i);
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
            varint((int) featuresSize);
            for (int i = 0; i < n; i++) {
                if (present[i]) {
                    writeEntry(i);
                }
            }
        }
        return Arrays.copyOf(out, total);
    }

    /** Size of the map entry of slot i; stores the list body size in listSizes. */
    private int entrySize(int i) {
        int c = counts[i];
        int body;
        switch (features.type(i)) {
            case INT64 -> {
                int packed = 0;
                long[] v = ints[i];
                for (int k = 0; k < c; k++) {
                    packed += varint64Size(v[k]);
                }
                packedSizes[i] = packed;
                body = c == 0 ? 0 : 1 + varintSize(packed) + packed;
            }
            case FLOAT32 -> body = c == 0 ? 0 : 1 + varintSize(4 * c) + 4 * c;
            default -> {
                int[] ends = bytesEnds[i];
                int s = 0;
                for (int k = 0; k < c; k++) {
                    int len = ends[k] - (k == 0 ? 0 : ends[k - 1]);
                    s += 1 + varintSize(len) + len;
                }
                body = s;
            }
        }
        listSizes[i] = body;
        int feature = 1 + varintSize(body) + body;
        return 1 + varintSize(keys[i].length) + keys[i].length + 1 + varintSize(feature) + feature;
    }

    private void writeEntry(int i) {
        int body = listSizes[i];
        int feature = 1 + varintSize(body) + body;
        int entry = 1 + varintSize(keys[i].length) + keys[i].length + 1 + varintSize(feature);
        entry += feature;
        out[pos++] = 0x0A; // Features.feature (map entry)
        varint(entry);
        out[pos++] = 0x0A; // key
        varint(keys[i].length);
        System.arraycopy(keys[i], 0, out, pos, keys[i].length);
        pos += keys[i].length;
        out[pos++] = 0x12; // value: Feature
        varint(feature);
        int c = counts[i];
        switch (features.type(i)) {
            case INT64 -> {
                out[pos++] = 0x1A; // Feature.int64_list
                varint(body);
                if (c > 0) {
                    out[pos++] = 0x0A; // packed values
                    varint(packedSizes[i]);
                    long[] v = ints[i];
                    for (int k = 0; k < c; k++) {
                        varint64(v[k]);
                    }
                }
            }
            case FLOAT32 -> {
                out[pos++] = 0x12; // Feature.float_list
                varint(body);
                if (c > 0) {
                    out[pos++] = 0x0A;
                    varint(4 * c);
                    float[] v = floats[i];
                    for (int k = 0; k < c; k++) {
                        int bits = Float.floatToRawIntBits(v[k]);
                        out[pos++] = (byte) bits;
                        out[pos++] = (byte) (bits >>> 8);
                        out[pos++] = (byte) (bits >>> 16);
                        out[pos++] = (byte) (bits >>> 24);
                    }
                }
            }
            default -> {
                out[pos++] = 0x0A; // Feature.bytes_list
                varint(body);
                int[] ends = bytesEnds[i];
                byte[] data = bytes[i];
                for (int k = 0; k < c; k++) {
                    int start = k == 0 ? 0 : ends[k - 1];
                    int len = ends[k] - start;
                    out[pos++] = 0x0A;
                    varint(len);
                    System.arraycopy(data, start, out, pos, len);
                    pos += len;
                }
            }
        }
    }

    private void varint(int v) {
        while ((v & ~0x7F) != 0) {
            out[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[pos++] = (byte) v;
    }

    private void varint64(long v) {
        byte[] o = out;
        int p = pos;
        while ((v & ~0x7FL) != 0) {
            o[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        o[p++] = (byte) v;
        pos = p;
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

    static int varint64Size(long v) {
        // protobuf's CodedOutputStream.computeUInt64SizeNoTag: ceil(significant bits / 7).
        return (640 - Long.numberOfLeadingZeros(v) * 9) >>> 6;
    }
}
