package io.tfstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream verify FILE...}: reads every record of each file and checks both CRCs of each, as
 * TensorFlow's {@code RecordReader::ReadRecord} does, then prints one report line per file.
 */
@Command(
        name = "verify",
        header = "Checks every record and CRC of TFRecord files, one report line per file.",
        mixinStandardHelpOptions = true,
        description = {
            "Reads every record of each TFRecord file and checks every CRC. Prints one line per"
                    + " file:",
            "  FILE: N records, B bytes, <compression>, ok   (B is the file's size)",
            "  FILE: damaged at byte OFFSET (record I): reason   (OFFSET in the decompressed"
                    + " stream)",
            "With --json, one JSON object per file instead:"
                    + " {\"file\",\"status\":\"ok\",\"records\",\"bytes\",\"compression\"},"
                    + " {\"file\",\"status\":\"damaged\",\"offset\",\"record\",\"reason\"} or"
                    + " {\"file\",\"status\":\"unreadable\",\"error\"}.",
            "With --manifest, each FILE (or every shard under a directory FILE) is checked"
                    + " against its <FILE>.manifest.json written by the shard sink (in the"
                    + " _tfstream tree of its base path, or beside it): size, CRC32C"
                    + " of the file, compression, records and record bytes. Lines end in"
                    + " 'ok, matches its manifest', or read 'FILE: differs from its manifest:"
                    + " ...' / 'FILE: no manifest'; JSON status \"mismatch\" (with"
                    + " \"problems\") or \"no_manifest\".",
            "Exit code 0 when every file is intact (and matches its manifest), 1 when one is"
                    + " damaged, differs from its manifest or has none, 2 when one cannot be"
                    + " read."
        })
final class VerifyCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            description =
                    "TFRecord files to check; a directory: the shards under it (names starting with . or _ and manifests skipped).")
    private List<Path> files;

    @Option(
            names = "--compression",
            defaultValue = "auto",
            paramLabel = "auto|none|gzip|zlib",
            description =
                    "Compression of the files (default: ${DEFAULT-VALUE}: .gz gzip, .zlib/.zz"
                            + " zlib, else detected from the first bytes).")
    private CompressionChoice compression;

    @Option(
            names = "--max-record-length",
            defaultValue = "" + TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH,
            paramLabel = "BYTES",
            description = "Largest record accepted (default: ${DEFAULT-VALUE}).")
    private int maxRecordLength;

    @Option(names = "--json", description = "One JSON object per file instead of a text line.")
    private boolean json;

    @Option(
            names = "--manifest",
            description =
                    "Check shards against their <shard>.manifest.json, found in the _tfstream"
                            + " tree of the base path or beside the shard (a directory: every"
                            + " shard under it).")
    private boolean manifest;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        TfRecordReadOptions options;
        try {
            options =
                    compression.applyTo(
                            TfRecordReadOptions.defaults().withMaxRecordLength(maxRecordLength));
        } catch (IllegalArgumentException e) {
            err.println("tfstream verify: --max-record-length: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        int exit = ExitCodes.OK;
        List<Path> targets;
        try {
            targets = ManifestChecks.shardsOf(files);
        } catch (IOException e) {
            err.println("tfstream verify: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        Progress progress =
                Progress.onTerminal(
                        spec.commandLine().getOut(), err, targets.size(), totalSize(targets));
        for (Path file : targets) {
            exit =
                    Math.max(
                            exit,
                            manifest
                                    ? ManifestChecks.verify(
                                            file, json, progress.out(), progress.err())
                                    : verify(file, options, json, progress));
            progress.fileDone(sizeOf(file));
        }
        progress.done();
        return exit;
    }

    private static int verify(
            Path file, TfRecordReadOptions options, boolean json, Progress progress) {
        PrintWriter out = progress.out();
        PrintWriter err = progress.err();
        ObjectNode line = JSON.createObjectNode().put("file", file.toString());
        try (TfRecordReader reader = ProgressInput.openReader(file, options, progress)) {
            while (reader.next()) {
                // Reading checks both CRCs of every record.
            }
            if (json) {
                out.println(
                        line.put("status", "ok")
                                .put("records", reader.recordCount())
                                .put("bytes", Files.size(file))
                                .put("compression", reader.compression().cliName()));
                return ExitCodes.OK;
            }
            out.println(
                    file
                            + ": "
                            + reader.recordCount()
                            + " records, "
                            + Files.size(file)
                            + " bytes, "
                            + reader.compression().cliName()
                            + ", ok");
            return ExitCodes.OK;
        } catch (CorruptRecordException e) {
            return damaged(line, file, e, json, out);
        } catch (IOException e) {
            return unreadable(line, file, FileErrors.describe(file, e), json, out, err);
        }
    }

    /** Prints the line of a damaged file; returns its exit code. */
    static int damaged(
            ObjectNode line, Path file, CorruptRecordException e, boolean json, PrintWriter out) {
        out.println(
                json
                        ? line.put("status", "damaged")
                                .put("offset", e.offset())
                                .put("record", e.recordIndex())
                                .put("reason", e.reason())
                        : damageLine(file, e));
        return ExitCodes.DATA_ERROR;
    }

    /** Prints the line (and the stderr message) of a file that cannot be read; its exit code. */
    static int unreadable(
            ObjectNode line,
            Path file,
            String why,
            boolean json,
            PrintWriter out,
            PrintWriter err) {
        out.println(
                json
                        ? line.put("status", "unreadable").put("error", why).toString()
                        : file + ": unreadable: " + why);
        err.println("tfstream verify: " + why);
        return ExitCodes.USAGE;
    }

    /** The size of {@code file}, or 0 when it cannot be read (its error is reported elsewhere). */
    static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    static long totalSize(List<Path> files) {
        long n = 0;
        for (Path f : files) {
            n += sizeOf(f);
        }
        return n;
    }

    /** {@code FILE: damaged at byte OFFSET (record I): reason}. */
    static String damageLine(Path file, CorruptRecordException e) {
        return file
                + ": damaged at byte "
                + e.offset()
                + " (record "
                + e.recordIndex()
                + "): "
                + e.reason();
    }
}
