package io.tfstream.tfrecord;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Reads a gzip file of one or more concatenated members (RFC 1952) to its end, as TensorFlow's
 * {@code ZlibInputStream} does (it resets the inflater at each member end). Unlike Java 17's {@code
 * GZIPInputStream}, it never stops at a member boundary because the underlying stream's {@code
 * available()} is 0 (JDK-7036144: network and object-store streams). Every header is parsed
 * (FEXTRA, FNAME, FCOMMENT, FHCRC) and every trailer (CRC32, ISIZE) verified; bytes after a member
 * that are not a gzip header are an error, as in TensorFlow. Not thread-safe.
 */
final class GzipMembersInputStream extends InputStream {
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;
    private static final int RESERVED = 0xe0;

    private final InputStream in;
    private final byte[] buf;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32(); // data of the current member
    private final CRC32 headerCrc = new CRC32();
    private final byte[] one = new byte[1];
    private int pos;
    private int limit;
    private long bufStart; // offset in the compressed stream of buf[0]
    private long memberSize;
    private long memberStart;
    private int member; // 1-based index of the current member
    private boolean eof;
    private boolean closed;

    /** Reads the first member's header now: an empty or non-gzip stream fails here. */
    GzipMembersInputStream(InputStream in, int bufferSize) throws IOException {
        this.in = in;
        this.buf = new byte[Math.max(bufferSize, 512)];
        if (!readHeader()) {
            throw new EOFException("empty gzip stream: no member header");
        }
    }

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("gzip stream closed");
        }
        if (len == 0) {
            return 0;
        }
        while (!eof) {
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new ZipException(
                        "corrupt deflate data in gzip member "
                                + member
                                + " (starting at byte "
                                + memberStart
                                + "): "
                                + e.getMessage());
            }
            if (n > 0) {
                crc.update(b, off, n);
                memberSize += n;
                return n;
            }
            if (inflater.finished()) {
                pos = limit - inflater.getRemaining();
                readTrailer();
                if (!readHeader()) {
                    eof = true;
                }
            } else if (inflater.needsDictionary()) {
                throw new ZipException("gzip member " + member + " asks for a preset dictionary");
            } else if (inflater.needsInput()) {
                if (pos == limit && !fill()) {
                    throw new EOFException(
                            "gzip member "
                                    + member
                                    + " (starting at byte "
                                    + memberStart
                                    + ") is truncated: the stream ends inside its compressed data"
                                    + " at byte "
                                    + (bufStart + limit));
                }
                inflater.setInput(buf, pos, limit - pos);
                pos = limit;
            }
        }
        return -1;
    }

    /** Reads the next member's header; false at a clean end (no byte after the last member). */
    private boolean readHeader() throws IOException {
        int id1 = nextByte();
        if (id1 < 0) {
            return false;
        }
        member++;
        memberStart = bufStart + pos - 1;
        headerCrc.reset();
        headerCrc.update(id1);
        int id2 = headerByte();
        if (id1 != 0x1f || id2 != 0x8b) {
            throw new ZipException(
                    String.format(
                            "not in gzip format: member %d at byte %d starts with %02x %02x, not"
                                    + " 1f 8b",
                            member, memberStart, id1, id2));
        }
        int cm = headerByte();
        if (cm != 8) {
            throw new ZipException(
                    "gzip member "
                            + member
                            + " uses compression method "
                            + cm
                            + ", not deflate (8)");
        }
        int flags = headerByte();
        if ((flags & RESERVED) != 0) {
            throw new ZipException(
                    String.format(
                            "gzip member %d has reserved header flags set (%02x)", member, flags));
        }
        for (int i = 0; i < 6; i++) { // MTIME, XFL, OS
            headerByte();
        }
        if ((flags & FEXTRA) != 0) {
            int xlen = headerByte() | (headerByte() << 8);
            for (int i = 0; i < xlen; i++) {
                headerByte();
            }
        }
        if ((flags & FNAME) != 0) {
            while (headerByte() != 0) {}
        }
        if ((flags & FCOMMENT) != 0) {
            while (headerByte() != 0) {}
        }
        if ((flags & FHCRC) != 0) {
            int expected = (int) headerCrc.getValue() & 0xffff;
            int stored = requiredByte("header CRC") | (requiredByte("header CRC") << 8);
            if (stored != expected) {
                throw new ZipException(
                        String.format(
                                "gzip member %d: header CRC16 mismatch (stored %04x, computed"
                                        + " %04x)",
                                member, stored, expected));
            }
        }
        inflater.reset();
        crc.reset();
        memberSize = 0;
        return true;
    }

    private void readTrailer() throws IOException {
        int storedCrc = readIntLe("trailer");
        int storedSize = readIntLe("trailer");
        int actualCrc = (int) crc.getValue();
        if (storedCrc != actualCrc) {
            throw new ZipException(
                    String.format(
                            "gzip member %d (starting at byte %d): CRC32 mismatch (trailer %08x,"
                                    + " data %08x)",
                            member, memberStart, storedCrc, actualCrc));
        }
        if (storedSize != (int) memberSize) {
            throw new ZipException(
                    String.format(
                            "gzip member %d (starting at byte %d): ISIZE mismatch (trailer %d,"
                                    + " data %d mod 2^32)",
                            member,
                            memberStart,
                            Integer.toUnsignedLong(storedSize),
                            memberSize & 0xffffffffL));
        }
    }

    private int readIntLe(String what) throws IOException {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v |= requiredByte(what) << (8 * i);
        }
        return v;
    }

    private int headerByte() throws IOException {
        int b = requiredByte("header");
        headerCrc.update(b);
        return b;
    }

    private int requiredByte(String what) throws IOException {
        int b = nextByte();
        if (b < 0) {
            throw new EOFException(
                    "gzip member "
                            + member
                            + " (starting at byte "
                            + memberStart
                            + ") is truncated: the stream ends inside its "
                            + what);
        }
        return b;
    }

    private int nextByte() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    /** Refills {@code buf} from {@code in} once it is used up; false at the end of {@code in}. */
    private boolean fill() throws IOException {
        while (true) {
            int n = in.read(buf, 0, buf.length);
            if (n < 0) {
                return false;
            }
            if (n > 0) {
                bufStart += limit;
                pos = 0;
                limit = n;
                return true;
            }
        }
    }

    @Override
    public int available() throws IOException {
        if (closed) {
            throw new IOException("gzip stream closed");
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            in.close();
        } finally {
            inflater.end();
        }
    }
}
