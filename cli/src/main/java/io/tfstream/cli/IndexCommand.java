package io.tfstream.cli;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordIndexWriter;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
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
 * {@code tfstream index FILE [--out FILE.idx]}: writes the DALI {@code tfrecord2idx} index of an
 * uncompressed TFRecord file after checking every record. The index appears only when the whole
 * file is intact.
 */
@Command(
        name = "index",
        header =
                "Writes the DALI index (offset and length per record) of an uncompressed TFRecord file.",
        mixinStandardHelpOptions = true,
        description = {
            "Writes the DALI index of an uncompressed TFRecord file: one '<offset> <length>' line"
                    + " per record, length being the framed size (16 + data).",
            "Prints 'FILE: N records, index OUT'. Exit code 2 when the file is compressed,"
                    + " damaged or unreadable."
        })
final class IndexCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Uncompressed TFRecord file.")
    private Path file;

    @Option(
            names = "--out",
            paramLabel = "FILE.idx",
            description = "Where to write the index (default: FILE.idx).")
    private Path out;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path target = out != null ? out : Path.of(file + ".idx");
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (TfRecordReader reader =
                TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
            if (reader.compression() != Compression.NONE) {
                err.println(
                        "tfstream index: "
                                + file
                                + " is "
                                + reader.compression().cliName()
                                + "-compressed; an index holds offsets into an uncompressed file");
                return ExitCodes.USAGE;
            }
            long records;
            try (TfRecordIndexWriter index = new TfRecordIndexWriter(Files.newOutputStream(tmp))) {
                while (reader.next()) {
                    index.add(reader.recordOffset(), reader.framedLength());
                }
                records = index.entries();
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            stdout.println(file + ": " + records + " records, index " + target);
            return ExitCodes.OK;
        } catch (CorruptRecordException e) {
            stdout.println(VerifyCommand.damageLine(file, e));
            err.println("tfstream index: no index written: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (IOException e) {
            err.println("tfstream index: " + FileErrors.describe(file, e));
            return ExitCodes.USAGE;
        } finally {
            deleteQuietly(tmp, err);
        }
    }

    private static void deleteQuietly(Path tmp, PrintWriter err) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            err.println("tfstream index: could not remove " + tmp + ": " + e);
        }
    }
}
