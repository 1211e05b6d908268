package io.tfstream.tfrecord;

import io.tfstream.tfrecord.CorruptRecordException.Kind;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.zip.ZipException;

/**
 * Reads TFRecord records one at a time, checking both CRCs of each, as {@code
 * RecordReader::ReadRecord} in {@code tensorflow/core/lib/io/record_reader.cc} does: a clean end
 * between records ends the stream, an end inside a record is {@link Kind#TRUNCATED}, a CRC that
 * does not match is a {@link CorruptRecordException} naming the offset and record.
 *
 * <p>One deliberate difference: TensorFlow takes a stream that ends inside a 12-byte header for a
 * clean end ({@code ReadNBytes} returns {@code OUT_OF_RANGE} and the reader op stops), silently
 * dropping the tail; this reader reports it as {@link Kind#TRUNCATED}. Offsets in errors are always
 * the record's header offset, where TensorFlow names the data offset (header + 12) for a data CRC
 * mismatch.
 *
 * <p>{@link #next()} exposes the record in place as {@link #buffer()}, {@link #offset()}, {@link
 * #length()} inside a reused, growing buffer: nothing is allocated per record. The view is valid
 * until the next call; {@link #copy()} returns an owned copy. Lengths are checked against {@link
 * TfRecordReadOptions#maxRecordLength()} after the length CRC and before any buffer grows.
 *
 * <p>Not thread-safe. Closing the reader closes its stream.
 */
public final class TfRecordReader implements Closeable {
    private static final int HEADER = TfRecordFraming.HEADER_SIZE;
    private static final int OVERHEAD = TfRecordFraming.OVERHEAD;

    private final InputStream in;
    private final String name;
    private final Compression compression;
    private final int maxRecordLength;
    private final Consumer<SkippedRegion> skipListener;
    private final int keep;
    private final InputWindow window;
    private final MaskedCrc32c crc = new MaskedCrc32c();

    private long nextIndex;
    private long recordOffset = -1;
    private int recordStart;
    private int recordLength;
    private long skippedBytes;
    private long skippedRegions;

    private TfRecordReader(
            InputStream decompressed,
            String name,
            Compression compression,
            TfRecordReadOptions options) {
        this.in = decompressed;
        this.name = name;
        this.compression = compression;
        this.maxRecordLength = options.maxRecordLength();
        this.skipListener = options.skipListener().orElse(null);
        this.keep = options.skippedBytesKept();
        this.window = new InputWindow(decompressed, options.bufferSize());
    }

    /**
     * Reads records from {@code raw}, the file's bytes as stored (compressed or not). With
     * auto-detection the first 12 bytes are peeked at and {@code name} is used as the file name
     * ({@link Compression#detect}); {@code name} also appears in every error.
     */
    public static TfRecordReader open(InputStream raw, String name, TfRecordReadOptions options)
            throws IOException {
        Compression c = options.compression().orElse(null);
        InputStream source = raw;
        if (c == null) {
            PushbackInputStream peekable = new PushbackInputStream(raw, HEADER);
            byte[] head = new byte[HEADER];
            int n = 0;
            while (n < HEADER) {
                int r = peekable.read(head, n, HEADER - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
            peekable.unread(head, 0, n);
            c = Compression.detect(name, head, n);
            source = peekable;
        }
        InputStream decompressed;
        try {
            decompressed = CompressionStreams.decompressing(source, c, options.bufferSize());
        } catch (EOFException | ZipException e) {
            // The gzip header is read eagerly: a missing or bad one is damage at byte 0.
            throw CorruptRecordException.compressedStream(name, 0, 0, e);
        }
        return new TfRecordReader(decompressed, name, c, options);
    }

    /** The compression in use (detected or configured). */
    public Compression compression() {
        return compression;
    }

    /**
     * Advances to the next record. Returns false at a clean end of the stream.
     *
     * @throws CorruptRecordException at the first damage, unless skipping is configured
     */
    public boolean next() throws IOException {
        try {
            CorruptRecordException damage = readAt();
            if (damage == null) {
                return recordOffset >= 0;
            }
            if (skipListener == null || damage.kind() == Kind.COMPRESSED_STREAM) {
                throw damage;
            }
            return resync(damage);
        } catch (EOFException | ZipException e) {
            if (compression == Compression.NONE) {
                throw e;
            }
            // From the inflater: the compressed stream is cut or damaged.
            throw CorruptRecordException.compressedStream(name, window.position(), nextIndex, e);
        }
    }

    /**
     * Tries to read a whole record at the window's position. Returns null with {@code recordOffset}
     * set on success, null with {@code recordOffset = -1} at a clean end, or the damage found
     * (nothing consumed).
     */
    private CorruptRecordException readAt() throws IOException {
        recordOffset = -1;
        long at = window.position();
        if (!window.ensure(HEADER)) {
            int got = window.available();
            return got == 0
                    ? null
                    : damage(
                            at,
                            Kind.TRUNCATED,
                            "truncated record header: " + got + " of " + HEADER + " bytes");
        }
        byte[] b = window.buf;
        int p = window.pos;
        long length = TfRecordFraming.getLength(b, p);
        int stored = TfRecordFraming.getInt(b, p + 8);
        int computed = crc.maskedLengthCrc(length);
        if (stored != computed) {
            return CorruptRecordException.crcMismatch(
                    name, at, nextIndex, Kind.LENGTH_CRC_MISMATCH, stored, computed);
        }
        if (length < 0 || length > maxRecordLength) {
            return damage(
                    at,
                    Kind.LENGTH_LIMIT_EXCEEDED,
                    "record length "
                            + Long.toUnsignedString(length)
                            + " exceeds maxRecordLength ("
                            + maxRecordLength
                            + ")");
        }
        int len = (int) length;
        int framed = len + OVERHEAD;
        if (!window.ensure(framed)) {
            return damage(
                    at,
                    Kind.TRUNCATED,
                    "truncated record: "
                            + window.available()
                            + " of "
                            + framed
                            + " bytes (data length "
                            + len
                            + ")");
        }
        b = window.buf;
        p = window.pos;
        stored = TfRecordFraming.getInt(b, p + HEADER + len);
        computed = crc.maskedCrc(b, p + HEADER, len);
        if (stored != computed) {
            return CorruptRecordException.crcMismatch(
                    name, at, nextIndex, Kind.DATA_CRC_MISMATCH, stored, computed);
        }
        recordOffset = at;
        recordStart = p + HEADER;
        recordLength = len;
        nextIndex++;
        window.skip(framed);
        return null;
    }

    /**
     * Skips byte by byte until a whole valid record starts; reports the skipped region with the
     * records it held where they can be counted ({@link SkippedRecordWalk}).
     */
    private boolean resync(CorruptRecordException damage) throws IOException {
        long from = window.position();
        SkippedRecordWalk walk = new SkippedRecordWalk(from);
        ByteArrayOutputStream head =
                keep > 0 ? new ByteArrayOutputStream(Math.min(keep, 4096)) : null;
        while (true) {
            if (window.available() == 0 && !window.ensure(1)) {
                long end = window.position();
                report(from, end, damage, head, walk.recordsLost(end, true));
                return false;
            }
            walk.passing(window, crc);
            if (head != null && head.size() < keep) {
                head.write(window.buf[window.pos]);
            }
            window.skip(1);
            // Most positions fail the length CRC: reject those without building an exception
            // (with its message and stack trace) for every byte skipped.
            if (window.ensure(HEADER)
                    && !TfRecordFraming.isValidHeader(window.buf, window.pos, crc)) {
                continue;
            }
            if (readAt() == null) {
                if (recordOffset < 0) {
                    long end = window.position();
                    report(from, end, damage, head, walk.recordsLost(end, true));
                    return false;
                }
                report(from, recordOffset, damage, head, walk.recordsLost(recordOffset, false));
                return true;
            }
        }
    }

    private void report(
            long from,
            long to,
            CorruptRecordException damage,
            ByteArrayOutputStream head,
            OptionalLong recordsLost) {
        long index = recordOffset >= 0 ? nextIndex - 1 : nextIndex;
        skippedBytes += to - from;
        skippedRegions++;
        skipListener.accept(
                new SkippedRegion(
                        from,
                        to - from,
                        index,
                        damage,
                        head == null ? null : head.toByteArray(),
                        recordsLost));
    }

    private CorruptRecordException damage(long at, Kind kind, String reason) {
        return CorruptRecordException.of(name, at, nextIndex, kind, reason);
    }

    /** The array holding the current record; valid until the next call of {@link #next()}. */
    public byte[] buffer() {
        return window.buf;
    }

    /** Where the current record's data starts in {@link #buffer()}. */
    public int offset() {
        return recordStart;
    }

    /** The current record's data length. */
    public int length() {
        return recordLength;
    }

    /** A copy of the current record's data. */
    public byte[] copy() {
        return Arrays.copyOfRange(window.buf, recordStart, recordStart + recordLength);
    }

    /** Convenience: the next record as a new array, or null at the end. */
    public byte[] readRecord() throws IOException {
        return next() ? copy() : null;
    }

    /** Zero-based index of the current record among the good records read. */
    public long recordIndex() {
        return nextIndex - 1;
    }

    /** Offset of the current record's header in the decompressed record stream. */
    public long recordOffset() {
        return recordOffset;
    }

    /** Size of the current record as framed: data plus 16 bytes. */
    public long framedLength() {
        return (long) recordLength + OVERHEAD;
    }

    /** Good records read so far. */
    public long recordCount() {
        return nextIndex;
    }

    /** Decompressed bytes consumed so far (good records and skipped bytes). */
    public long position() {
        return window.position();
    }

    /** Bytes skipped over damaged regions so far. */
    public long skippedBytes() {
        return skippedBytes;
    }

    /** Damaged regions skipped so far. */
    public long skippedRegions() {
        return skippedRegions;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
