package io.tfstream.cli;

import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream count FILE...}: the records of each TFRecord file and in total, without parsing
 * them (framing and CRCs are still checked, at memory speed).
 */
@Command(
        name = "count",
        header =
                "Counts the records of TFRecord files, per file and in total, without parsing them.",
        mixinStandardHelpOptions = true,
        description = {
            "Prints 'FILE: N records' per file and 'total: N records in K files'. A damaged file"
                    + " prints its damage line (as verify) and counts the records before it.",
            "Exit code 0 when every file is intact, 1 when one is damaged, 2 when one cannot be"
                    + " read."
        })
final class CountCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            description =
                    "TFRecord files to count; a directory: the shards under it (names starting with . or _ and manifests skipped).")
    private List<Path> files;

    @CommandLine.Mixin private CompressionOption compression;

    @Override
    public Integer call() {
        try {
            files = ManifestChecks.shardsOf(files); // a directory: the shards under it
        } catch (IOException e) {
            spec.commandLine().getErr().println("tfstream count: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        Progress progress =
                Progress.onTerminal(
                        spec.commandLine().getOut(),
                        spec.commandLine().getErr(),
                        files.size(),
                        VerifyCommand.totalSize(files));
        PrintWriter out = progress.out();
        PrintWriter err = progress.err();
        TfRecordReadOptions options = compression.applyTo(TfRecordReadOptions.defaults());
        long total = 0;
        int exit = ExitCodes.OK;
        for (Path file : files) {
            long n = 0;
            try (TfRecordReader reader = ProgressInput.openReader(file, options, progress)) {
                try {
                    while (reader.next()) {
                        n++;
                    }
                    out.println(file + ": " + n + " records");
                } catch (CorruptRecordException e) {
                    out.println(VerifyCommand.damageLine(file, e) + " (" + n + " records before)");
                    exit = Math.max(exit, ExitCodes.DATA_ERROR);
                }
            } catch (CorruptRecordException e) {
                out.println(VerifyCommand.damageLine(file, e));
                exit = Math.max(exit, ExitCodes.DATA_ERROR);
            } catch (IOException e) {
                err.println("tfstream count: " + FileErrors.describe(file, e));
                exit = ExitCodes.USAGE;
            }
            total += n;
            progress.fileDone(VerifyCommand.sizeOf(file));
        }
        progress.done();
        out.println("total: " + total + " records in " + files.size() + " files");
        return exit;
    }
}
