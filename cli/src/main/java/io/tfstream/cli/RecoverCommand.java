package io.tfstream.cli;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.SkippedRegion;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream recover IN OUT}: copies every intact record of a damaged TFRecord file to OUT,
 * resynchronising after each damaged region on the next valid record header (length CRC, then data
 * CRC), and reports what was skipped. Compressed input is recovered up to its first
 * undecompressable byte.
 */
@Command(
        name = "recover",
        header =
                "Copies every intact record of a damaged TFRecord file and reports what was skipped.",
        mixinStandardHelpOptions = true,
        description = {
            "Prints one line per skipped region, 'skipped bytes A..B before record I (records lost:"
                    + " N): reason', offsets in the decompressed stream; N is 'unknown' when the"
                    + " region's record headers do not lead from its start to its end (a damaged"
                    + " length, bytes that were never records). Then a summary line: 'IN: C records"
                    + " copied to OUT, K damaged regions skipped (B bytes, records lost: L)', with 'at"
                    + " least L' or 'unknown' when a region is not countable. OUT is written whole"
                    + " or not at all.",
            "Exit code 0 when nothing was damaged, 1 when something was skipped, 2 when IN cannot be"
                    + " read."
        })
final class RecoverCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "The damaged TFRecord file.")
    private Path in;

    @Parameters(index = "1", paramLabel = "OUT", description = "Where the intact records go.")
    private Path out;

    @Option(
            names = "--compression",
            defaultValue = "auto",
            paramLabel = "auto|none|gzip|zlib",
            description = "Compression of OUT (default: ${DEFAULT-VALUE}, that of IN).")
    private CompressionChoice compression;

    @Override
    public Integer call() {
        Progress progress =
                Progress.onTerminal(
                        spec.commandLine().getOut(),
                        spec.commandLine().getErr(),
                        1,
                        VerifyCommand.sizeOf(in));
        try {
            return recover(progress);
        } finally {
            progress.done();
        }
    }

    private int recover(Progress progress) {
        PrintWriter stdout = progress.out();
        PrintWriter err = progress.err();
        SkipReport skipped = new SkipReport(stdout);
        TfRecordReadOptions options =
                TfRecordReadOptions.defaults().withAutoCompression().skipDamaged(skipped);
        Path tmp = null;
        try (TfRecordReader reader = ProgressInput.openReader(in, options, progress)) {
            Compression outCompression =
                    compression == CompressionChoice.AUTO
                            ? reader.compression()
                            : Compression.valueOf(compression.name());
            Path parent = out.toAbsolutePath().getParent();
            tmp = Files.createTempFile(parent, "." + out.getFileName(), ".tmp");
            long copied = 0;
            boolean cut = false;
            try (TfRecordWriter writer = TfRecordFiles.newWriter(tmp, outCompression)) {
                try {
                    while (reader.next()) {
                        writer.write(reader.buffer(), reader.offset(), reader.length());
                        copied++;
                    }
                } catch (CorruptRecordException e) {
                    // Only a damaged compressed stream ends a skipping read: the rest is lost.
                    cut = true;
                    stdout.println(
                            "skipped bytes "
                                    + e.offset()
                                    + "..end before record "
                                    + e.recordIndex()
                                    + " (records lost: unknown): "
                                    + e.reason()
                                    + " (nothing after it can be decompressed)");
                }
            }
            Files.move(
                    tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
            stdout.println(
                    in
                            + ": "
                            + copied
                            + " records copied to "
                            + out
                            + ", "
                            + skipped.regions
                            + (cut
                                    ? " damaged regions and the rest of the stream"
                                    : " damaged regions")
                            + " skipped ("
                            + skipped.bytes
                            + " bytes, records lost: "
                            + skipped.lostTotal(cut)
                            + ")");
            return skipped.regions == 0 && !cut ? ExitCodes.OK : ExitCodes.DATA_ERROR;
        } catch (IOException e) {
            err.println("tfstream recover: " + FileErrors.describe(in, e));
            return ExitCodes.USAGE;
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    err.println("tfstream recover: could not remove " + tmp + ": " + e);
                }
            }
        }
    }

    /** Prints each skipped region as it is found and adds it up for the summary line. */
    private static final class SkipReport implements Consumer<SkippedRegion> {
        private final PrintWriter out;
        long regions;
        long bytes;
        long recordsLost;
        boolean uncounted;

        SkipReport(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void accept(SkippedRegion r) {
            regions++;
            bytes += r.length();
            r.recordsLost().ifPresent(n -> recordsLost += n);
            uncounted |= r.recordsLost().isEmpty();
            out.println(
                    "skipped bytes "
                            + r.offset()
                            + ".."
                            + (r.offset() + r.length())
                            + " before record "
                            + r.recordIndex()
                            + " (records lost: "
                            + (r.recordsLost().isPresent()
                                    ? Long.toString(r.recordsLost().getAsLong())
                                    : "unknown")
                            + "): "
                            + r.damage().reason());
        }

        /**
         * {@code L}, or {@code at least L} / {@code unknown} when a region (or the rest of a cut
         * stream) was not countable.
         */
        String lostTotal(boolean cut) {
            if (!uncounted && !cut) {
                return Long.toString(recordsLost);
            }
            return recordsLost > 0 ? "at least " + recordsLost : "unknown";
        }
    }
}
