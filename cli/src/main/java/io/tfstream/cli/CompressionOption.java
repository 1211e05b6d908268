package io.tfstream.cli;

import io.tfstream.tfrecord.TfRecordReadOptions;
import picocli.CommandLine.Option;

/** The {@code --compression} option of the commands that read TFRecord files (a mixin). */
final class CompressionOption {
    @Option(
            names = "--compression",
            defaultValue = "auto",
            paramLabel = "auto|none|gzip|zlib",
            description = "Compression of the files (default: ${DEFAULT-VALUE}, as verify).")
    private CompressionChoice choice;

    /** {@code options} reading files of the chosen compression. */
    TfRecordReadOptions applyTo(TfRecordReadOptions options) {
        return choice.applyTo(options);
    }
}
