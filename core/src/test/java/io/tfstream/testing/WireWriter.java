package io.tfstream.testing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes protobuf wire bytes by hand, including encodings protobuf-java never emits: overlong
 * varints, unpacked repeated scalars, duplicate fields, truncated lengths. Used to build serialized
 * {@code tf.train.Example}s byte by byte.
 */
public final class WireWriter {
    private byte[] buf = new byte[64];
    private int size;

    public WireWriter raw(int... bytes) {
        for (int b : bytes) {
            put((byte) b);
        }
        return this;
    }

    public WireWriter raw(byte[] bytes) {
        return raw(bytes, 0, bytes.length);
    }

    public WireWriter raw(byte[] bytes, int off, int len) {
        ensure(len);
        System.arraycopy(bytes, off, buf, size, len);
        size += len;
        return this;
    }

    /** A canonical varint of the 64-bit value. */
    public WireWriter varint(long v) {
        while ((v & ~0x7fL) != 0) {
            put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        put((byte) v);
        return this;
    }

    /**
     * A varint padded to {@code bytes} bytes with continuation bits (an overlong but valid encoding
     * when {@code bytes <= 10}).
     */
    public WireWriter varintPadded(long v, int bytes) {
        for (int i = 0; i < bytes - 1; i++) {
            put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        put((byte) (v & 0x7f));
        return this;
    }

    public WireWriter tag(int field, int wireType) {
        return varint(((long) field << 3) | wireType);
    }

    public WireWriter fixed32(int v) {
        put((byte) v);
        put((byte) (v >>> 8));
        put((byte) (v >>> 16));
        put((byte) (v >>> 24));
        return this;
    }

    public WireWriter fixed64(long v) {
        fixed32((int) v);
        return fixed32((int) (v >>> 32));
    }

    /** A length-delimited field: tag, canonical length, bytes. */
    public WireWriter bytesField(int field, byte[] value) {
        tag(field, 2);
        varint(value.length);
        return raw(value);
    }

    public WireWriter stringField(int field, String value) {
        return bytesField(field, value.getBytes(StandardCharsets.UTF_8));
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    public WireWriter clear() {
        size = 0;
        return this;
    }

    private void put(byte b) {
        ensure(1);
        buf[size++] = b;
    }

    private void ensure(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(size + n, buf.length * 2));
        }
    }
}
