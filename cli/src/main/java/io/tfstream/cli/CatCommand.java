package io.tfstream.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import com.google.protobuf.util.JsonFormat;
import io.tfstream.text.Quoted;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tensorflow.example.Example;
import org.tensorflow.example.SequenceExample;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream cat FILE}: the records of a TFRecord file, one per line, as protobuf's JSON
 * mapping of {@code tf.train.Example} ({@code JsonFormat}: int64 values as strings, bytes as
 * base64) or as one-line text format.
 */
@Command(
        name = "cat",
        header =
                "Prints the records of a TFRecord file as JSON or text-format Examples, one per line.",
        mixinStandardHelpOptions = true,
        description = {
            "A record that is not a valid Example (or SequenceExample with --seq) is reported on"
                    + " stderr with its index and byte offset and skipped.",
            "Exit code 0 when every record printed, 1 when a record was skipped or the file is"
                    + " damaged, 2 when the file cannot be read."
        })
final class CatCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The TFRecord file.")
    private Path file;

    @Option(names = "--limit", paramLabel = "N", description = "Print at most N records.")
    private long limit = Long.MAX_VALUE;

    @Option(names = "--offset", paramLabel = "K", description = "Skip the first K records.")
    private long offset;

    @Option(
            names = "--format",
            defaultValue = "json",
            paramLabel = "json|pbtxt",
            description =
                    "json (protobuf's JSON mapping, default) or pbtxt (one-line text format).")
    private String format;

    @Option(names = "--seq", description = "Records are tf.train.SequenceExamples.")
    private boolean seq;

    @Option(
            names = "--compression",
            defaultValue = "auto",
            paramLabel = "auto|none|gzip|zlib",
            description = "Compression of the file (default: ${DEFAULT-VALUE}, as verify).")
    private CompressionChoice compression;

    @Override
    public Integer call() {
        Progress progress =
                Progress.onTerminal(
                        spec.commandLine().getOut(),
                        spec.commandLine().getErr(),
                        1,
                        VerifyCommand.sizeOf(file));
        try {
            return cat(progress);
        } finally {
            progress.done();
        }
    }

    private int cat(Progress progress) {
        PrintWriter out = progress.out();
        PrintWriter err = progress.err();
        if (!format.equals("json") && !format.equals("pbtxt")) {
            err.println(
                    "tfstream cat: --format must be json or pbtxt, got '"
                            + Quoted.cut(format)
                            + "'");
            return ExitCodes.USAGE;
        }
        if (limit < 0 || offset < 0) {
            err.println("tfstream cat: --limit and --offset must not be negative");
            return ExitCodes.USAGE;
        }
        JsonFormat.Printer json = JsonFormat.printer().omittingInsignificantWhitespace();
        int exit = ExitCodes.OK;
        try (TfRecordReader reader =
                ProgressInput.openReader(
                        file, compression.applyTo(TfRecordReadOptions.defaults()), progress)) {
            long printed = 0;
            while (printed < limit && reader.next()) {
                if (reader.recordIndex() < offset) {
                    continue;
                }
                Message m;
                try {
                    byte[] r = reader.copy();
                    m = seq ? SequenceExample.parseFrom(r) : Example.parseFrom(r);
                } catch (InvalidProtocolBufferException e) {
                    err.println(
                            "tfstream cat: record "
                                    + reader.recordIndex()
                                    + " at byte "
                                    + reader.recordOffset()
                                    + " is not "
                                    + (seq ? "a SequenceExample" : "an Example")
                                    + ": "
                                    + e.getMessage());
                    exit = ExitCodes.DATA_ERROR;
                    continue;
                }
                out.println(
                        format.equals("json")
                                ? json.print(m)
                                : TextFormat.printer()
                                        .emittingSingleLine(true)
                                        .printToString(m)
                                        .trim());
                printed++;
            }
        } catch (CorruptRecordException e) {
            out.flush();
            err.println("tfstream cat: " + VerifyCommand.damageLine(file, e));
            return ExitCodes.DATA_ERROR;
        } catch (IOException e) {
            err.println("tfstream cat: " + FileErrors.describe(file, e));
            return ExitCodes.USAGE;
        }
        return exit;
    }
}
