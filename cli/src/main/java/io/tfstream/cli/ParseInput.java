package io.tfstream.cli;

import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.tensor.json.StringEncoding;
import io.tfstream.tfrecord.TfRecordReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The options {@code parse} and {@code parse-seq} share: where the spec comes from, the TFRecord
 * input, how records are grouped into batches and how strings are printed.
 */
final class ParseInput {

    /** Exactly one of a schema or a feature-spec file. */
    static final class SpecFile {
        @Option(
                names = "--schema",
                required = true,
                paramLabel = "SCHEMA",
                description =
                        "TFMD Schema (.pbtxt text or .pb binary); the spec is derived from it.")
        Path schema;

        @Option(
                names = "--feature-spec",
                required = true,
                paramLabel = "SPEC.json",
                description = "A feature-spec file (SPEC.json, or SEQSPEC.json for parse-seq).")
        Path featureSpec;

        Path path() {
            return schema != null ? schema : featureSpec;
        }
    }

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "The parsing spec, one of:%n")
    SpecFile spec;

    @Option(
            names = "--input",
            required = true,
            paramLabel = "FILE",
            description = "TFRecord file of serialized records (.gz gzip, .zlib/.zz zlib).")
    Path input;

    @Option(
            names = "--batch-size",
            defaultValue = "1024",
            paramLabel = "N",
            description =
                    "Records per batch, in file order; the last may be short (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(
            names = "--strings",
            defaultValue = "base64",
            paramLabel = "base64|utf8",
            description =
                    "How string values are printed: base64 (default) or utf8 (a JSON string when"
                            + " the bytes are strict UTF-8, else {\"base64\":...}).")
    String strings;

    @Option(
            names = "--compression",
            defaultValue = "auto",
            paramLabel = "auto|none|gzip|zlib",
            description =
                    "Compression of the input (default: ${DEFAULT-VALUE}: .gz gzip, .zlib/.zz"
                            + " zlib, else detected from the first bytes).")
    CompressionChoice compression;

    @Option(
            names = "--legacy-defaults",
            description =
                    "With --schema: give fixed-shape features without an explicit default the"
                            + " legacy defaults BYTES b'', INT -1, FLOAT -1.0.")
    boolean legacyDefaults;

    /** The parsing spec; rejected specs throw {@link io.tfstream.spec.SpecRejectedException}. */
    ParseSpec loadSpec() throws IOException {
        return SpecSource.load(
                spec.path(), legacyDefaults ? FixedLenDefaults.LEGACY : FixedLenDefaults.NONE);
    }

    StringEncoding stringEncoding() {
        return StringEncoding.fromName(strings);
    }

    TfRecordReadOptions readOptions() {
        return compression.applyTo(TfRecordReadOptions.defaults());
    }
}
