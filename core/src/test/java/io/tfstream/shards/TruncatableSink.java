package io.tfstream.shards;

import java.util.Arrays;

/** A shard sink that keeps its bytes and can be cut back, as a restore truncates a file. */
final class TruncatableSink implements ShardEncoder.Sink {
    private byte[] bytes = new byte[1024];
    private int size;
    private int writes;

    @Override
    public void write(byte[] b, int off, int len) {
        if (size + len > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + len));
        }
        System.arraycopy(b, off, bytes, size, len);
        size += len;
        writes++;
    }

    void truncate(long length) {
        if (length > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " bytes to " + length);
        }
        size = (int) length;
    }

    int size() {
        return size;
    }

    int writes() {
        return writes;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }
}
