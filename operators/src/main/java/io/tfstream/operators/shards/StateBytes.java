package io.tfstream.operators.shards;

import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * State bytes built without a doubling buffer. An open shard's statistics run to tens of megabytes,
 * written at every checkpoint by every writer subtask at once: a buffer that doubles and is then
 * copied out needs about four times their size on the heap at its peak, enough to run a TaskManager
 * out of memory. These need the bytes once ({@link #counted}) or twice ({@link #chunked}).
 */
final class StateBytes {
    // below half of G1's smallest region: larger arrays are humongous, each in regions of its own
    private static final int CHUNK = 256 << 10;

    private StateBytes() {}

    /** What writes the bytes; called once or twice, and must write the same both times. */
    interface Body {
        void writeTo(DataOutput out) throws IOException;
    }

    /**
     * Counts the bytes first, then writes them into an array of that size: for a body whose large
     * parts are arrays it already holds (counting them costs nothing).
     */
    static byte[] counted(Body body) throws IOException {
        DataOutputStream counter = new DataOutputStream(OutputStream.nullOutputStream());
        body.writeTo(counter);
        int size = counter.size();
        if (size == Integer.MAX_VALUE) {
            throw new IOException("state of 2 GiB or more");
        }
        Exact out = new Exact(size);
        body.writeTo(new DataOutputStream(out));
        return out.bytes();
    }

    /**
     * Writes the body once into 256 KiB chunks, then copies them into an array of the exact size:
     * for a body that is costly to write twice.
     */
    static byte[] chunked(Body body) throws IOException {
        Chunks chunks = new Chunks();
        DataOutputStream out = new DataOutputStream(chunks);
        body.writeTo(out);
        out.flush();
        return chunks.toArray();
    }

    /** An array of a size known beforehand, filled exactly. */
    private static final class Exact extends OutputStream {
        private final byte[] bytes;
        private int length;

        Exact(int size) {
            bytes = new byte[size];
        }

        @Override
        public void write(int b) throws IOException {
            room(1);
            bytes[length++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            room(len);
            System.arraycopy(b, off, bytes, length, len);
            length += len;
        }

        private void room(int len) throws IOException {
            if (len > bytes.length - length) {
                throw new IOException("the state wrote more bytes than it counted");
            }
        }

        byte[] bytes() throws IOException {
            if (length != bytes.length) {
                throw new IOException("the state wrote fewer bytes than it counted");
            }
            return bytes;
        }
    }

    private static final class Chunks extends OutputStream {
        private final List<byte[]> full = new ArrayList<>();
        private byte[] current = new byte[CHUNK];
        private int used;
        private long total;

        @Override
        public void write(int b) {
            if (used == current.length) {
                next();
            }
            current[used++] = (byte) b;
            total++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            total += len;
            while (len > 0) {
                if (used == current.length) {
                    next();
                }
                int n = Math.min(len, current.length - used);
                System.arraycopy(b, off, current, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        private void next() {
            full.add(current);
            current = new byte[CHUNK];
            used = 0;
        }

        byte[] toArray() throws IOException {
            if (total >= Integer.MAX_VALUE) {
                throw new IOException("state of 2 GiB or more");
            }
            byte[] out = new byte[(int) total];
            int at = 0;
            for (byte[] c : full) {
                System.arraycopy(c, 0, out, at, c.length);
                at += c.length;
            }
            System.arraycopy(current, 0, out, at, used);
            return out;
        }
    }
}
