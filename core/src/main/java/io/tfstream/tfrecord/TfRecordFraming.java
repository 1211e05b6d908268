package io.tfstream.tfrecord;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The TFRecord frame, as written by {@code RecordWriter::WriteRecord} in {@code
 * tensorflow/core/lib/io/record_writer.cc}:
 *
 * <pre>
 * uint64 length                       little-endian
 * uint32 masked_crc32c(length bytes)
 * byte   data[length]
 * uint32 masked_crc32c(data)
 * </pre>
 *
 * Static helpers that encode and decode the header and footer in caller-owned arrays, so code that
 * frames records into a stream it does not own (a file sink encoder) needs no writer object and
 * allocates nothing per record.
 */
public final class TfRecordFraming {
    /** Length (8) plus its masked CRC (4). */
    public static final int HEADER_SIZE = 12;

    /** Masked CRC of the data. */
    public static final int FOOTER_SIZE = 4;

    /** Bytes a record adds around its data: {@code HEADER_SIZE + FOOTER_SIZE}. */
    public static final int OVERHEAD = HEADER_SIZE + FOOTER_SIZE;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private TfRecordFraming() {}

    /** Writes the 12-byte header for a record of {@code length} bytes at {@code dst[at]}. */
    public static void putHeader(byte[] dst, int at, long length, MaskedCrc32c crc) {
        LONG_LE.set(dst, at, length);
        INT_LE.set(dst, at + 8, crc.maskedLengthCrc(length));
    }

    /** Writes the 4-byte footer (masked CRC of {@code data[off, off + len)}) at {@code dst[at]}. */
    public static void putFooter(
            byte[] dst, int at, byte[] data, int off, int len, MaskedCrc32c crc) {
        INT_LE.set(dst, at, crc.maskedCrc(data, off, len));
    }

    /**
     * Writes one framed record to {@code out} without flushing or closing it. {@code scratch} holds
     * at least {@link #HEADER_SIZE} bytes and is overwritten.
     */
    public static void writeRecord(
            OutputStream out, byte[] data, int off, int len, byte[] scratch, MaskedCrc32c crc)
            throws IOException {
        putHeader(scratch, 0, len, crc);
        out.write(scratch, 0, HEADER_SIZE);
        out.write(data, off, len);
        putFooter(scratch, 0, data, off, len, crc);
        out.write(scratch, 0, FOOTER_SIZE);
    }

    /** The little-endian uint64 length at {@code src[at]} (may be negative if above 2^63). */
    public static long getLength(byte[] src, int at) {
        return (long) LONG_LE.get(src, at);
    }

    /** The little-endian uint32 at {@code src[at]}, e.g. a stored masked CRC. */
    public static int getInt(byte[] src, int at) {
        return (int) INT_LE.get(src, at);
    }

    /** Whether the 12 bytes at {@code src[at]} are a header whose length CRC matches. */
    public static boolean isValidHeader(byte[] src, int at, MaskedCrc32c crc) {
        return crc.maskedLengthCrc(getLength(src, at)) == getInt(src, at + 8);
    }

    /** Refuses a record longer than any reader accepts, before a byte of it is written. */
    public static void checkWritable(int len) {
        if (len > TfRecordReadOptions.MAX_SUPPORTED_RECORD_LENGTH) {
            throw new IllegalArgumentException(
                    "record of "
                            + len
                            + " bytes exceeds the largest readable record ("
                            + TfRecordReadOptions.MAX_SUPPORTED_RECORD_LENGTH
                            + ")");
        }
    }
}
