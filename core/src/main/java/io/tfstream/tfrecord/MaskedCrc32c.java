package io.tfstream.tfrecord;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * CRC32C (Castagnoli) with TensorFlow's mask, as in {@code tensorflow/core/lib/hash/crc32c.h}
 * ({@code crc32c::Mask} / {@code crc32c::Unmask}). Wraps one reusable {@link CRC32C}, the JDK
 * intrinsic, so computing a checksum allocates nothing. Not thread-safe: one instance per reader or
 * writer.
 */
public final class MaskedCrc32c {
    /** The constant TensorFlow adds after rotating, {@code kMaskDelta}. */
    public static final int MASK_DELTA = 0xa282ead8;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    // Remembers the header CRC of recently seen lengths: records of one size repeat their length,
    // and for small records the call into the intrinsic costs as much as the data's own CRC.
    private static final int LENGTH_CACHE_SIZE = 256;

    private final CRC32C crc = new CRC32C();
    private final byte[] lengthBytes = new byte[8];
    private final long[] cachedLengths = new long[LENGTH_CACHE_SIZE];
    private final int[] cachedLengthCrcs = new int[LENGTH_CACHE_SIZE];

    public MaskedCrc32c() {
        Arrays.fill(cachedLengths, -1L);
    }

    /** Masked CRC32C of the 8 little-endian bytes of {@code length}: a record header's CRC. */
    public int maskedLengthCrc(long length) {
        int slot = (int) length & (LENGTH_CACHE_SIZE - 1);
        if (cachedLengths[slot] == length) {
            return cachedLengthCrcs[slot];
        }
        LONG_LE.set(lengthBytes, 0, length);
        int masked = maskedCrc(lengthBytes, 0, 8);
        cachedLengths[slot] = length;
        cachedLengthCrcs[slot] = masked;
        return masked;
    }

    /** Masked CRC32C of {@code len} bytes of {@code data} from {@code off}. */
    public int maskedCrc(byte[] data, int off, int len) {
        return mask(crc(data, off, len));
    }

    /** Unmasked CRC32C of {@code len} bytes of {@code data} from {@code off}. */
    public int crc(byte[] data, int off, int len) {
        crc.reset();
        crc.update(data, off, len);
        return (int) crc.getValue();
    }

    /** {@code ((crc >>> 15) | (crc << 17)) + 0xa282ead8}: rotate right by 15, add the delta. */
    public static int mask(int crc) {
        return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
    }

    /** Inverse of {@link #mask(int)}. */
    public static int unmask(int masked) {
        int rot = masked - MASK_DELTA;
        return (rot >>> 17) | (rot << 15);
    }
}
