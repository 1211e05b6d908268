package io.tfstream.cli;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.RecordBatch;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.tensor.json.BatchJsonWriter;
import io.tfstream.tensor.json.StringEncoding;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * The loop {@code parse} and {@code parse-seq} share: load the spec, read the TFRecord input in
 * batches of {@code --batch-size} records, parse each batch and print one JSON line per batch (or
 * an error line for a batch TensorFlow would reject), with the CLI's exit codes.
 */
final class BatchParseRun {

    /** Builds a parser for a spec and prints parsed batches. */
    interface Parser {
        void parseAndWrite(long batch, RecordBatch records, BatchJsonWriter out)
                throws ExampleParseException, IOException;
    }

    /** Turns a loaded spec into a {@link Parser}, rejecting specs this command cannot parse. */
    interface ParserFactory {
        Parser create(ParseSpec spec);
    }

    private BatchParseRun() {}

    static int run(
            String command,
            CommandLine.Model.CommandSpec cli,
            ParseInput input,
            ParserFactory factory) {
        PrintWriter out = cli.commandLine().getOut();
        PrintWriter err = cli.commandLine().getErr();
        if (input.batchSize < 1) {
            throw new CommandLine.ParameterException(
                    cli.commandLine(), "--batch-size must be at least 1; got " + input.batchSize);
        }
        StringEncoding strings;
        try {
            strings = input.stringEncoding();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    cli.commandLine(), "--strings: " + e.getMessage());
        }
        Parser parser;
        try {
            parser = factory.create(input.loadSpec());
        } catch (SpecRejectedException | IllegalArgumentException e) {
            out.println(SpecCommand.errorLine(e.getMessage()));
            out.flush();
            return ExitCodes.SPEC_REJECTED;
        } catch (IOException e) {
            err.println("tfstream " + command + ": " + FileErrors.describe(input.spec.path(), e));
            err.flush();
            return ExitCodes.USAGE;
        }
        return parseAll(command, input, strings, parser, out, err);
    }

    private static int parseAll(
            String command,
            ParseInput input,
            StringEncoding strings,
            Parser parser,
            PrintWriter out,
            PrintWriter err) {
        int exit = ExitCodes.OK;
        try (TfRecordReader reader = TfRecordFiles.openReader(input.input, input.readOptions());
                BatchJsonWriter json = new BatchJsonWriter(out, strings)) {
            RecordBatch batch = new RecordBatch();
            for (long b = 0; ; b++) {
                batch.clear();
                while (batch.size() < input.batchSize && reader.next()) {
                    batch.add(reader.buffer(), reader.offset(), reader.length());
                }
                if (batch.size() == 0) {
                    break;
                }
                try {
                    parser.parseAndWrite(b, batch, json);
                } catch (ExampleParseException e) {
                    json.writeError(b, e.getMessage(), e.code());
                    exit = ExitCodes.DATA_ERROR;
                }
                json.flush();
                if (batch.size() < input.batchSize) {
                    break;
                }
            }
        } catch (CorruptRecordException e) {
            out.flush();
            err.println("tfstream " + command + ": " + e.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        } catch (IOException e) {
            out.flush();
            err.println("tfstream " + command + ": " + FileErrors.describe(input.input, e));
            err.flush();
            return ExitCodes.USAGE;
        }
        out.flush();
        return exit;
    }
}
