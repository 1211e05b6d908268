package io.tfstream.tfrecord;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Immutable settings of a {@link TfRecordReader}: the compression (or auto-detection), the largest
 * record accepted, the read buffer size and whether damaged regions are skipped.
 *
 * <p>TensorFlow reads any length that fits in memory and stops at the first damaged record ({@code
 * RecordReader::ReadRecord}); the limit and the skip mode are this reader's additions, off by
 * default only for skipping.
 */
public final class TfRecordReadOptions {
    /** 64 MiB per record, the same default as the Example parser's record limit. */
    public static final int DEFAULT_MAX_RECORD_LENGTH = 64 << 20;

    /** 64 KiB read and decompression buffers. */
    public static final int DEFAULT_BUFFER_SIZE = 64 << 10;

    /** Largest record a Java array can hold with its framing. */
    public static final int MAX_SUPPORTED_RECORD_LENGTH =
            Integer.MAX_VALUE - 8 - TfRecordFraming.OVERHEAD;

    private static final TfRecordReadOptions DEFAULTS =
            new TfRecordReadOptions(null, DEFAULT_MAX_RECORD_LENGTH, DEFAULT_BUFFER_SIZE, null, 0);

    private final Compression compression;
    private final int maxRecordLength;
    private final int bufferSize;
    private final Consumer<SkippedRegion> skipListener;
    private final int skippedBytesKept;

    private TfRecordReadOptions(
            Compression compression,
            int maxRecordLength,
            int bufferSize,
            Consumer<SkippedRegion> skipListener,
            int skippedBytesKept) {
        this.compression = compression;
        this.maxRecordLength = maxRecordLength;
        this.bufferSize = bufferSize;
        this.skipListener = skipListener;
        this.skippedBytesKept = skippedBytesKept;
    }

    /** Auto-detected compression, {@link #DEFAULT_MAX_RECORD_LENGTH}, stop at the first damage. */
    public static TfRecordReadOptions defaults() {
        return DEFAULTS;
    }

    /** The fixed compression, or empty to detect it ({@link Compression#detect}). */
    public Optional<Compression> compression() {
        return Optional.ofNullable(compression);
    }

    public int maxRecordLength() {
        return maxRecordLength;
    }

    public int bufferSize() {
        return bufferSize;
    }

    /** The listener told about skipped regions, or empty when damage throws. */
    public Optional<Consumer<SkippedRegion>> skipListener() {
        return Optional.ofNullable(skipListener);
    }

    /** Reads with this compression instead of detecting it. */
    public TfRecordReadOptions withCompression(Compression c) {
        return new TfRecordReadOptions(
                Objects.requireNonNull(c, "compression"),
                maxRecordLength,
                bufferSize,
                skipListener,
                skippedBytesKept);
    }

    /** Detects the compression from the file name and first bytes. */
    public TfRecordReadOptions withAutoCompression() {
        return new TfRecordReadOptions(
                null, maxRecordLength, bufferSize, skipListener, skippedBytesKept);
    }

    /**
     * Refuses records longer than {@code max} bytes before allocating anything for them ({@code
     * maxRecordLength}).
     */
    public TfRecordReadOptions withMaxRecordLength(int max) {
        if (max < 0 || max > MAX_SUPPORTED_RECORD_LENGTH) {
            throw new IllegalArgumentException(
                    "maxRecordLength must be in [0, "
                            + MAX_SUPPORTED_RECORD_LENGTH
                            + "], got "
                            + max);
        }
        return new TfRecordReadOptions(
                compression, max, bufferSize, skipListener, skippedBytesKept);
    }

    public TfRecordReadOptions withBufferSize(int size) {
        if (size < TfRecordFraming.HEADER_SIZE) {
            throw new IllegalArgumentException(
                    "bufferSize must be at least " + TfRecordFraming.HEADER_SIZE + ", got " + size);
        }
        return new TfRecordReadOptions(
                compression, maxRecordLength, size, skipListener, skippedBytesKept);
    }

    /**
     * Instead of throwing {@link CorruptRecordException}, skips damaged bytes up to the next
     * position where a record with a valid length CRC, an acceptable length and a valid data CRC
     * starts, and tells {@code listener} what was skipped. Damage to the compressed stream itself
     * still throws: nothing after it can be decompressed.
     */
    public TfRecordReadOptions skipDamaged(Consumer<SkippedRegion> listener) {
        return skipDamaged(listener, 0);
    }

    /**
     * As {@link #skipDamaged(Consumer)}, and each {@link SkippedRegion} carries the first {@code
     * keepBytes} bytes of the region ({@link SkippedRegion#head()}), e.g. for a dead-letter record.
     */
    public TfRecordReadOptions skipDamaged(Consumer<SkippedRegion> listener, int keepBytes) {
        if (keepBytes < 0) {
            throw new IllegalArgumentException("keepBytes must be >= 0, got " + keepBytes);
        }
        return new TfRecordReadOptions(
                compression,
                maxRecordLength,
                bufferSize,
                Objects.requireNonNull(listener, "listener"),
                keepBytes);
    }

    /** How many bytes of each skipped region its {@link SkippedRegion} keeps. */
    public int skippedBytesKept() {
        return skippedBytesKept;
    }
}
