package io.tfstream.tfrecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An output stream that keeps what it gets and remembers flushes and close; refuses writes after
 * close.
 */
public final class CollectingOutputStream extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private boolean closed;
    private int flushes;

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        bytes.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        bytes.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        checkOpen();
        flushes++;
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
    }

    public byte[] toByteArray() {
        return bytes.toByteArray();
    }

    public boolean isClosed() {
        return closed;
    }

    public int flushes() {
        return flushes;
    }
}
