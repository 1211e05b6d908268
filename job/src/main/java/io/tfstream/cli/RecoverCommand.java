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
            "Prints one line per skipped region ('skipped bytes A..B before record I: reason', offsets"
                    + " in the decompressed stream) and a summary line. OUT is written whole or not at"
                    + " all.",
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
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long[] skipped = new long[2]; // regions, bytes
        TfRecordReadOptions options =
                TfRecordReadOptions.defaults()
                        .withAutoCompression()
                        .skipDamaged(
                                r -> {
                                    skipped[0]++;
                                    skipped[1] += r.length();
                                    stdout.println(describe(r));
                                });
        Path tmp = null;
        try (TfRecordReader reader = TfRecordFiles.openReader(in, options)) {
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
                                    + ": "
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
                            + skipped[0]
                            + (cut
                                    ? " damaged regions and the rest of the stream"
                                    : " damaged regions")
                            + " skipped ("
                            + skipped[1]
                            + " bytes)");
            return skipped[0] == 0 && !cut ? ExitCodes.OK : ExitCodes.DATA_ERROR;
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

    private static String describe(SkippedRegion r) {
        return "skipped bytes "
                + r.offset()
                + ".."
                + (r.offset() + r.length())
                + " before record "
                + r.recordIndex()
                + ": "
                + r.damage().reason();
    }
}
