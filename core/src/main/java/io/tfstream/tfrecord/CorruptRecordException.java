package io.tfstream.tfrecord;

import java.io.IOException;

/**
 * A TFRecord stream that TensorFlow's {@code RecordReader::ReadRecord} ({@code
 * tensorflow/core/lib/io/record_reader.cc}) would reject with {@code DATA_LOSS} ("truncated record
 * at", "corrupted record at"), or a record longer than the configured limit. Names the file, the
 * byte offset of the damaged record's header in the (decompressed) record stream, the record's
 * index and, for checksum failures, the stored and computed masked CRCs in hex.
 */
public class CorruptRecordException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What is wrong at the reported offset. */
    public enum Kind {
        /** The stream ends inside a record (header, data or footer). */
        TRUNCATED,
        /** The masked CRC stored after the length does not match the length bytes. */
        LENGTH_CRC_MISMATCH,
        /** The masked CRC stored after the data does not match the data. */
        DATA_CRC_MISMATCH,
        /** The length is valid but exceeds {@code maxRecordLength}. */
        LENGTH_LIMIT_EXCEEDED,
        /** The gzip or zlib stream around the records is itself damaged. */
        COMPRESSED_STREAM
    }

    private final String file;
    private final long offset;
    private final long recordIndex;
    private final Kind kind;
    private final String reason;
    private final int expectedCrc;
    private final int actualCrc;

    private CorruptRecordException(
            String file,
            long offset,
            long recordIndex,
            Kind kind,
            String reason,
            int expectedCrc,
            int actualCrc,
            Throwable cause) {
        super(
                file + ": damaged at byte " + offset + " (record " + recordIndex + "): " + reason,
                cause);
        this.file = file;
        this.offset = offset;
        this.recordIndex = recordIndex;
        this.kind = kind;
        this.reason = reason;
        this.expectedCrc = expectedCrc;
        this.actualCrc = actualCrc;
    }

    static CorruptRecordException crcMismatch(
            String file, long offset, long recordIndex, Kind kind, int stored, int computed) {
        String what = kind == Kind.LENGTH_CRC_MISMATCH ? "length" : "data";
        String reason =
                String.format(
                        "%s CRC mismatch: expected masked CRC 0x%08x (stored), actual 0x%08x"
                                + " (computed)",
                        what, stored, computed);
        return new CorruptRecordException(
                file, offset, recordIndex, kind, reason, stored, computed, null);
    }

    static CorruptRecordException of(
            String file, long offset, long recordIndex, Kind kind, String reason) {
        return new CorruptRecordException(file, offset, recordIndex, kind, reason, 0, 0, null);
    }

    static CorruptRecordException compressedStream(
            String file, long offset, long recordIndex, IOException cause) {
        return new CorruptRecordException(
                file,
                offset,
                recordIndex,
                Kind.COMPRESSED_STREAM,
                "damaged compressed stream: " + cause.getMessage(),
                0,
                0,
                cause);
    }

    /** The file name, or the description the reader was given for an unnamed stream. */
    public String file() {
        return file;
    }

    /** Offset of the damaged record's first byte in the decompressed record stream. */
    public long offset() {
        return offset;
    }

    /** Zero-based index of the damaged record (the number of good records before it). */
    public long recordIndex() {
        return recordIndex;
    }

    public Kind kind() {
        return kind;
    }

    /** The damage alone, without file and location, e.g. "data CRC mismatch: ...". */
    public String reason() {
        return reason;
    }

    /** Whether {@link #expectedCrc()} and {@link #actualCrc()} carry values. */
    public boolean isCrcMismatch() {
        return kind == Kind.LENGTH_CRC_MISMATCH || kind == Kind.DATA_CRC_MISMATCH;
    }

    /** The masked CRC stored in the file; meaningful only if {@link #isCrcMismatch()}. */
    public int expectedCrc() {
        return expectedCrc;
    }

    /** The masked CRC computed from the bytes; meaningful only if {@link #isCrcMismatch()}. */
    public int actualCrc() {
        return actualCrc;
    }
}
