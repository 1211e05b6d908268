package io.tfstream.shards;

import io.tfstream.tfrecord.Adler32Combine;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.Crc32cCombine;
import io.tfstream.tfrecord.MaskedCrc32c;
import io.tfstream.tfrecord.TfRecordFraming;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;

/**
 * Encodes one TFRecord shard that lives across checkpoints: frames records as {@code
 * RecordWriter::WriteRecord} does and compresses them so that at every {@link #endSegment()} the
 * bytes in the sink are a prefix the shard can be {@link #resume resumed} from after a restore.
 *
 * <ul>
 *   <li>GZIP: one gzip member per segment. TensorFlow's {@code ZlibInputStream} resets its inflater
 *       at each member end ({@code window_bits} 31), so it reads all members.
 *   <li>ZLIB: one zlib stream per shard (TensorFlow reads only the first stream of a file). A
 *       segment ends with a sync flush; the final Adler-32 is combined across segments.
 * </ul>
 *
 * Framing and compressing allocate nothing per record. Not thread-safe.
 */
public final class ShardEncoder {
    /** Where encoded bytes go (the shard store's output). */
    @FunctionalInterface
    public interface Sink {
        void write(byte[] b, int off, int len) throws IOException;
    }

    private static final int BUFFER_SIZE = 64 << 10;

    // As CompressionStreams (zlib's deflateInit2 for gzip): no name, mtime 0, XFL 0, OS 3 (Unix).
    private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};

    private final Compression compression;
    private final int level;
    private final Sink sink;
    private final MaskedCrc32c recordCrc = new MaskedCrc32c();
    private final byte[] frame = new byte[BUFFER_SIZE]; // framed, uncompressed records
    private final byte[] out; // stored bytes not yet in the sink
    private final byte[] scratch = new byte[8]; // stream headers and trailers
    private final CRC32C storedCrc = new CRC32C(); // stored bytes since this encoder began
    private final CRC32 memberCrc; // GZIP: uncompressed bytes of the open member
    private final Adler32 segmentAdler; // ZLIB: uncompressed bytes since this encoder began
    private Deflater deflater; // created at the first record; ended at finish()
    private int framePos;
    private int outPos;

    // Restored prefix: CRC32C / Adler-32 are combined with what this encoder adds.
    private final int prefixCrc;
    private final long prefixBytesOut;
    private final int prefixAdler;
    private final long prefixBytesIn;

    private long records;
    private long bytesOut;
    private long bytesIn;
    private long memberBytesIn;
    private int segments;
    private boolean headerWritten;
    private long segmentRecords; // records since the last segment end
    private State finalState;
    private boolean released;

    private ShardEncoder(State s, Sink sink) {
        this.compression = s.compression();
        this.level = s.level();
        this.sink = Objects.requireNonNull(sink, "sink");
        this.out = compression == Compression.NONE ? frame : new byte[BUFFER_SIZE];
        this.memberCrc = compression == Compression.GZIP ? new CRC32() : null;
        this.segmentAdler = compression == Compression.ZLIB ? new Adler32() : null;
        this.prefixCrc = s.crc32c();
        this.prefixBytesOut = s.bytesOut();
        this.prefixAdler = s.adler32();
        this.prefixBytesIn = s.bytesIn();
        this.records = s.records();
        this.bytesOut = s.bytesOut();
        this.bytesIn = s.bytesIn();
        this.segments = s.segments();
        this.headerWritten = s.headerWritten();
    }

    /**
     * A new shard: nothing written until the first record. level: -1 (zlib default, = TensorFlow's)
     * or 0-9.
     */
    public static ShardEncoder start(Compression compression, int level, Sink out) {
        return new ShardEncoder(State.empty(compression, level), out);
    }

    /**
     * Continues a shard after a restore from the state {@link #endSegment()} returned; the sink
     * already holds exactly {@code state.bytesOut()} bytes.
     */
    public static ShardEncoder resume(State state, Sink out) {
        return new ShardEncoder(Objects.requireNonNull(state, "state"), out);
    }

    /**
     * Frames one record (length, masked CRC of length, data, masked CRC of data) and encodes it.
     */
    public void write(byte[] record, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, record.length);
        checkOpen("write");
        TfRecordFraming.checkWritable(len);
        if (segmentRecords == 0) {
            beginSegment();
        }
        int framed = len + TfRecordFraming.OVERHEAD;
        if (framed > frame.length - framePos) {
            drainFrame();
        }
        TfRecordFraming.putHeader(frame, framePos, len, recordCrc);
        framePos += TfRecordFraming.HEADER_SIZE;
        if (len <= frame.length - framePos - TfRecordFraming.FOOTER_SIZE) {
            System.arraycopy(record, off, frame, framePos, len);
            framePos += len;
        } else {
            // Larger than the buffer: encoded straight from the caller's array.
            drainFrame();
            consume(record, off, len);
        }
        TfRecordFraming.putFooter(frame, framePos, record, off, len, recordCrc);
        framePos += TfRecordFraming.FOOTER_SIZE;
        records++;
        segmentRecords++;
    }

    /**
     * Ends a segment (at every checkpoint): every byte so far is in the sink and forms a prefix the
     * shard can be resumed from. GZIP finishes the open member (if a record was written since the
     * last segment end), ZLIB sync-flushes (byte-aligned, BFINAL not set). Returns the state to
     * persist.
     */
    public State endSegment() throws IOException {
        checkOpen("endSegment");
        if (segmentRecords > 0) {
            drainFrame();
            switch (compression) {
                case NONE -> {}
                case GZIP -> finishMember();
                case ZLIB -> deflateAll(false);
            }
            flushOut();
            segments++;
            segmentRecords = 0;
        }
        return state();
    }

    /**
     * Ends the shard: GZIP finishes the open member (a shard without records is one empty member);
     * ZLIB writes the final block and the Adler-32 of all uncompressed bytes. Returns the final
     * state. Further writes throw {@link IllegalStateException}; calling it again returns the same
     * state.
     */
    public State finish() throws IOException {
        if (finalState != null) {
            return finalState;
        }
        checkOpen("finish");
        drainFrame();
        switch (compression) {
            case NONE -> {}
            case GZIP -> {
                if (segmentRecords > 0 || !headerWritten) {
                    if (segmentRecords == 0) {
                        beginSegment(); // an empty file is no gzip stream; one empty member is
                    }
                    finishMember();
                }
            }
            case ZLIB -> {
                if (!headerWritten) {
                    beginSegment();
                }
                deflater();
                deflateAll(true);
                int adler = adler32();
                scratch[0] = (byte) (adler >>> 24);
                scratch[1] = (byte) (adler >>> 16);
                scratch[2] = (byte) (adler >>> 8);
                scratch[3] = (byte) adler;
                putOut(scratch, 4);
            }
        }
        flushOut();
        if (segmentRecords > 0) {
            segments++;
            segmentRecords = 0;
        }
        release();
        finalState = state();
        return finalState;
    }

    /**
     * Frees the native deflater without writing anything more, e.g. when a writer closes with the
     * shard still open in a checkpoint. The encoder is unusable afterwards.
     */
    public void release() {
        released = true;
        if (deflater != null) {
            deflater.end();
            deflater = null;
        }
    }

    private void checkOpen(String call) {
        if (finalState != null) {
            throw new IllegalStateException(call + " after finish()");
        }
        if (released) {
            throw new IllegalStateException(call + " after release()");
        }
    }

    /** Stored bytes pushed to the sink so far (including before a resume). */
    public long bytesOut() {
        return bytesOut;
    }

    /** Records written so far (including before a resume). */
    public long records() {
        return records;
    }

    private State state() {
        return new State(
                compression,
                level,
                records,
                bytesOut,
                Crc32cCombine.combine(
                        prefixCrc, (int) storedCrc.getValue(), bytesOut - prefixBytesOut),
                bytesIn,
                adler32(),
                segments,
                headerWritten);
    }

    private int adler32() {
        if (segmentAdler == null) {
            return 1;
        }
        return Adler32Combine.combine(
                prefixAdler, (int) segmentAdler.getValue(), bytesIn - prefixBytesIn);
    }

    /** Writes the stream header a segment needs before its first byte: gzip member or zlib. */
    private void beginSegment() throws IOException {
        if (compression == Compression.GZIP) {
            putOut(GZIP_HEADER, GZIP_HEADER.length);
            memberCrc.reset();
            memberBytesIn = 0;
        } else if (compression == Compression.ZLIB && !headerWritten) {
            // zlib's deflate(): CMF 0x78, FLEVEL from the level, FCHECK so that CMF.FLG % 31 == 0.
            int effective = level == Deflater.DEFAULT_COMPRESSION ? 6 : level;
            int flevel = effective < 2 ? 0 : effective < 6 ? 1 : effective == 6 ? 2 : 3;
            int header = (0x78 << 8) | (flevel << 6);
            header += 31 - header % 31;
            scratch[0] = (byte) (header >>> 8);
            scratch[1] = (byte) header;
            putOut(scratch, 2);
        }
        headerWritten = true;
    }

    private Deflater deflater() {
        if (deflater == null) {
            // After a resume: the prefix ends at a byte-aligned non-final block boundary (sync
            // flush), and a fresh deflater only refers back into its own output, so prefix ‖ new
            // blocks is one valid RFC 1951 block sequence.
            deflater = new Deflater(level, true);
        }
        return deflater;
    }

    /** Encodes the framed records buffered so far. */
    private void drainFrame() throws IOException {
        if (framePos == 0) {
            return;
        }
        if (compression == Compression.NONE) {
            bytesIn += framePos;
            outPos = framePos; // out is frame
            flushOut();
        } else {
            consume(frame, 0, framePos);
        }
        framePos = 0;
    }

    /** Encodes uncompressed framed bytes, bypassing the frame buffer. */
    private void consume(byte[] b, int off, int len) throws IOException {
        bytesIn += len;
        switch (compression) {
            case NONE -> emit(b, off, len);
            case GZIP -> {
                memberCrc.update(b, off, len);
                memberBytesIn += len;
                deflate(b, off, len);
            }
            case ZLIB -> {
                segmentAdler.update(b, off, len);
                deflate(b, off, len);
            }
        }
    }

    private void deflate(byte[] b, int off, int len) throws IOException {
        Deflater d = deflater();
        d.setInput(b, off, len);
        while (!d.needsInput()) {
            outPos += d.deflate(out, outPos, out.length - outPos, Deflater.NO_FLUSH);
            if (outPos == out.length) {
                flushOut();
            }
        }
    }

    /**
     * Deflates until all pending output is out: with {@code finish} the final block (and the
     * deflater is finished), otherwise a sync flush (byte-aligned, ending in {@code 00 00 ff ff}).
     */
    private void deflateAll(boolean finish) throws IOException {
        Deflater d = deflater();
        if (finish) {
            d.finish();
        }
        int flush = finish ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH;
        while (true) {
            outPos += d.deflate(out, outPos, out.length - outPos, flush);
            if (outPos < out.length && (!finish || d.finished())) {
                return;
            }
            if (outPos == out.length) {
                flushOut();
            }
        }
    }

    /** Finishes the open gzip member: final block, CRC32 and ISIZE (length mod 2^32), LE. */
    private void finishMember() throws IOException {
        deflateAll(true);
        int crc = (int) memberCrc.getValue();
        int size = (int) memberBytesIn;
        for (int i = 0; i < 4; i++) {
            scratch[i] = (byte) (crc >>> (8 * i));
            scratch[4 + i] = (byte) (size >>> (8 * i));
        }
        putOut(scratch, 8);
        deflater.reset();
    }

    /** Appends a few stored bytes (headers, trailers) to the output buffer. */
    private void putOut(byte[] b, int len) throws IOException {
        if (len > out.length - outPos) {
            flushOut();
        }
        System.arraycopy(b, 0, out, outPos, len);
        outPos += len;
    }

    private void flushOut() throws IOException {
        if (outPos > 0) {
            int n = outPos;
            outPos = 0;
            emit(out, 0, n);
        }
    }

    private void emit(byte[] b, int off, int len) throws IOException {
        storedCrc.update(b, off, len);
        sink.write(b, off, len);
        bytesOut += len;
    }

    /**
     * Everything needed to resume a shard, as of a segment end (or the final state after {@link
     * #finish()}).
     *
     * @param records records written
     * @param bytesOut stored bytes in the sink
     * @param crc32c CRC32C of the stored bytes, as {@link CRC32C} gives it
     * @param bytesIn uncompressed (framed) bytes
     * @param adler32 Adler-32 of the uncompressed bytes for ZLIB, 1 (that of nothing) otherwise
     * @param segments segments that hold at least one record (for GZIP: members)
     * @param headerWritten whether the shard's first stored byte is out
     */
    public record State(
            Compression compression,
            int level,
            long records,
            long bytesOut,
            int crc32c,
            long bytesIn,
            int adler32,
            int segments,
            boolean headerWritten) {
        /** The version {@link #writeTo} writes first. */
        public static final int VERSION = 1;

        public State {
            Objects.requireNonNull(compression, "compression");
            if (level < Deflater.DEFAULT_COMPRESSION || level > Deflater.BEST_COMPRESSION) {
                throw new IllegalArgumentException(
                        "compression level must be -1 (default) or 0-9, got " + level);
            }
            if (records < 0 || bytesOut < 0 || bytesIn < 0 || segments < 0) {
                throw new IllegalArgumentException(
                        "negative count in shard encoder state: records "
                                + records
                                + ", bytesOut "
                                + bytesOut
                                + ", bytesIn "
                                + bytesIn
                                + ", segments "
                                + segments);
            }
        }

        // Stable codes, not ordinals: reordering the enum must not change stored state.
        private static int code(Compression c) {
            return switch (c) {
                case NONE -> 0;
                case GZIP -> 1;
                case ZLIB -> 2;
            };
        }

        static State empty(Compression compression, int level) {
            return new State(compression, level, 0, 0, 0, 0, 1, 0, false);
        }

        /** Writes the state, starting with {@link #VERSION}. */
        public void writeTo(DataOutput out) throws IOException {
            out.writeInt(VERSION);
            out.writeByte(code(compression));
            out.writeByte(level);
            out.writeLong(records);
            out.writeLong(bytesOut);
            out.writeInt(crc32c);
            out.writeLong(bytesIn);
            out.writeInt(adler32);
            out.writeInt(segments);
            out.writeBoolean(headerWritten);
        }

        /** Reads what {@link #writeTo} wrote; rejects other versions and invalid fields. */
        public static State readFrom(DataInput in) throws IOException {
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException(
                        "unknown shard encoder state version "
                                + version
                                + " (this build reads version "
                                + VERSION
                                + "): state written by another tfstream version");
            }
            int c = in.readByte();
            Compression compression =
                    switch (c) {
                        case 0 -> Compression.NONE;
                        case 1 -> Compression.GZIP;
                        case 2 -> Compression.ZLIB;
                        default ->
                                throw new IOException(
                                        "unknown compression code "
                                                + c
                                                + " in shard encoder state");
                    };
            try {
                return new State(
                        compression,
                        in.readByte(),
                        in.readLong(),
                        in.readLong(),
                        in.readInt(),
                        in.readLong(),
                        in.readInt(),
                        in.readInt(),
                        in.readBoolean());
            } catch (IllegalArgumentException e) {
                throw new IOException("invalid shard encoder state: " + e.getMessage(), e);
            }
        }
    }
}
