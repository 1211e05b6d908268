package io.tfstream.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.PickyInputStream;
import io.tfstream.tfrecord.SkippedRegion;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes {@link TfRecordReader} over a fuzzed file (the input after its configuration byte).
 * Configuration bits: 0-1 compression (NONE, GZIP, ZLIB, detected), 2 skip damaged regions, 3-4
 * maxRecordLength (0, 16, 1024, default), 5 smallest buffer (else 512 bytes), 6 one byte per read,
 * 7 a {@code .gz} file name for detection.
 *
 * <p>Oracle: the reader ends cleanly or throws {@link CorruptRecordException} (with skipping, only
 * for a damaged compressed stream); no record is longer than the maximum or lies outside the
 * buffer; offsets only grow and skipped regions add up; it terminates; nothing is allocated beyond
 * what the input size justifies.
 */
class TfRecordReaderFuzzTest {
    private static final int[] MAX_LENGTHS = {
        0, 16, 1024, TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH
    };

    /** A deflate stream expands at most about 1032:1; more steps than that means a loop. */
    private static final long MAX_STEPS_PER_BYTE = 1100;

    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void read(byte[] data) throws Exception {
        int config = FuzzRecords.config(data);
        byte[] file = data.length == 0 ? data : java.util.Arrays.copyOfRange(data, 1, data.length);
        long[] decompressed = {0};
        AllocationBudget.check(
                () -> Math.max(data.length, decompressed[0]),
                () -> readAll(config, file, decompressed));
    }

    /** Reads the whole file; leaves the decompressed bytes consumed in {@code decompressed[0]}. */
    private static void readAll(int config, byte[] file, long[] decompressed) throws Exception {
        List<SkippedRegion> skipped = new ArrayList<>();
        boolean skip = (config & 0x04) != 0;
        int max = MAX_LENGTHS[(config >>> 3) & 3];
        TfRecordReadOptions options = TfRecordReadOptions.defaults().withMaxRecordLength(max);
        options =
                switch (config & 3) {
                    case 0 -> options.withCompression(Compression.NONE);
                    case 1 -> options.withCompression(Compression.GZIP);
                    case 2 -> options.withCompression(Compression.ZLIB);
                    default -> options.withAutoCompression();
                };
        if (skip) {
            options = options.skipDamaged(skipped::add);
        }
        // The 64 KiB default buffers would dominate the cost of an execution.
        options = options.withBufferSize((config & 0x20) != 0 ? 12 : 512);
        InputStream in =
                (config & 0x40) != 0 ? new PickyInputStream(file) : new ByteArrayInputStream(file);
        String name = (config & 0x80) != 0 ? "fuzz.tfrecord.gz" : "fuzz.tfrecord";

        long steps = 0;
        long lastEnd = 0;
        TfRecordReader opened = null;
        try (TfRecordReader reader = TfRecordReader.open(in, name, options)) {
            opened = reader;
            boolean plain = reader.compression() == Compression.NONE;
            while (reader.next()) {
                check(++steps <= MAX_STEPS_PER_BYTE * (file.length + 1), "no end after " + steps);
                int len = reader.length();
                check(len >= 0 && len <= max, "record of " + len + " bytes, max " + max);
                check(
                        reader.offset() >= 0 && reader.offset() + len <= reader.buffer().length,
                        "record outside its buffer");
                check(reader.recordIndex() == reader.recordCount() - 1, "record index");
                check(reader.recordOffset() >= lastEnd, "record overlaps the previous one");
                lastEnd = reader.recordOffset() + reader.framedLength();
                check(reader.position() == lastEnd, "position after the record");
                check(!plain || lastEnd <= file.length, "record past the end of the file");
                check(skip || reader.skippedBytes() == 0, "skipped without skipDamaged");
            }
            long sum = 0;
            for (SkippedRegion r : skipped) {
                check(r.length() > 0 && r.offset() >= 0, "empty or negative region " + r);
                sum += r.length();
            }
            check(sum == reader.skippedBytes(), "skipped regions != skippedBytes");
            check(skipped.size() == reader.skippedRegions(), "skipped region count");
            check(!plain || reader.position() == file.length, "clean end before the file ends");
        } catch (CorruptRecordException e) {
            check(
                    !skip || e.kind() == CorruptRecordException.Kind.COMPRESSED_STREAM,
                    "threw " + e.kind() + " while skipping damaged regions: " + e.getMessage());
        } finally {
            decompressed[0] = opened == null ? 0 : opened.position();
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
