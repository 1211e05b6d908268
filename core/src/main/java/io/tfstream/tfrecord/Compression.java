package io.tfstream.tfrecord;

import java.util.Locale;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Compression of a whole TFRecord file, as TensorFlow's {@code TFRecordOptions} / {@code
 * RecordWriterOptions::CreateRecordWriterOptions} ({@code
 * tensorflow/core/lib/io/record_writer.cc}): {@code ""} none, {@code "ZLIB"} a zlib stream (window
 * bits 15) and {@code "GZIP"} a gzip stream (window bits 15 + 16) of the framed records.
 */
@PublicEvolving
public enum Compression {
    NONE(""),
    GZIP("GZIP"),
    ZLIB("ZLIB");

    private final String tensorFlowName;

    Compression(String tensorFlowName) {
        this.tensorFlowName = tensorFlowName;
    }

    /**
     * The {@code compression_type} string TensorFlow uses: {@code ""}, {@code "GZIP"}, {@code
     * "ZLIB"}.
     */
    public String tensorFlowName() {
        return tensorFlowName;
    }

    /**
     * Lower-case name as the CLI prints and accepts it: {@code none}, {@code gzip}, {@code zlib}.
     */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code none|gzip|zlib} in any case. */
    public static Compression fromCliName(String name) {
        for (Compression c : values()) {
            if (c.cliName().equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException(
                "unknown compression '" + name + "', expected none, gzip or zlib");
    }

    /**
     * Chooses the compression of a file from its name and first bytes (the {@code --compression
     * auto} rule): {@code .gz} is gzip, {@code .zlib}/{@code .zz} is zlib; otherwise the file is
     * uncompressed if its first 12 bytes are a TFRecord header whose length CRC matches, and only
     * if not, a gzip ({@code 1f 8b}) or zlib ({@code 78 01|5e|9c|da}) magic decides. The CRC check
     * comes first because an uncompressed record of length {@code 0x...8b1f} starts with the gzip
     * magic.
     *
     * @param fileName the file's name, or null when unknown
     * @param head the file's first bytes
     * @param headLength how many bytes of {@code head} are valid (fewer than 12 for a short file)
     */
    public static Compression detect(String fileName, byte[] head, int headLength) {
        if (fileName != null) {
            String lower = fileName.toLowerCase(Locale.ROOT);
            if (lower.endsWith(".gz")) {
                return GZIP;
            }
            if (lower.endsWith(".zlib") || lower.endsWith(".zz")) {
                return ZLIB;
            }
        }
        if (headLength >= TfRecordFraming.HEADER_SIZE
                && TfRecordFraming.isValidHeader(head, 0, new MaskedCrc32c())) {
            return NONE;
        }
        if (headLength >= 2) {
            int b0 = head[0] & 0xff;
            int b1 = head[1] & 0xff;
            if (b0 == 0x1f && b1 == 0x8b) {
                return GZIP;
            }
            if (b0 == 0x78 && (b1 == 0x01 || b1 == 0x5e || b1 == 0x9c || b1 == 0xda)) {
                return ZLIB;
            }
        }
        return NONE;
    }
}
