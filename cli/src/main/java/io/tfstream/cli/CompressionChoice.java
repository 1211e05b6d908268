package io.tfstream.cli;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordReadOptions;

/** The {@code --compression auto|none|gzip|zlib} option of commands that read TFRecord files. */
enum CompressionChoice {
    AUTO,
    NONE,
    GZIP,
    ZLIB;

    /** The read options with this choice applied: auto-detection or a fixed compression. */
    TfRecordReadOptions applyTo(TfRecordReadOptions options) {
        return this == AUTO
                ? options.withAutoCompression()
                : options.withCompression(Compression.valueOf(name()));
    }
}
