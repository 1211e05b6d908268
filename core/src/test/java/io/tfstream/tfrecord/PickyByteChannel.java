package io.tfstream.tfrecord;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A channel that accepts at most a few bytes per write call, as a non-blocking or network channel
 * may: code that assumes one {@code write} drains the buffer loses data on it.
 */
public final class PickyByteChannel implements WritableByteChannel {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final int maxPerCall;
    private boolean open = true;
    private int calls;

    public PickyByteChannel(int maxPerCall) {
        this.maxPerCall = maxPerCall;
    }

    @Override
    public int write(ByteBuffer src) {
        calls++;
        int n = Math.min(maxPerCall, src.remaining());
        for (int i = 0; i < n; i++) {
            bytes.write(src.get());
        }
        return n;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    public byte[] toByteArray() {
        return bytes.toByteArray();
    }

    public int calls() {
        return calls;
    }
}
