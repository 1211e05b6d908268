package io.tfstream.cli;

import io.tfstream.convert.AvroContainer;
import io.tfstream.convert.AvroSchemaRejectedException;
import io.tfstream.convert.AvroToExample;
import io.tfstream.convert.ConversionException;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.convert.InputFormat;
import io.tfstream.convert.JsonLines;
import io.tfstream.convert.JsonToExample;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
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
 * {@code tfstream convert --schema S --input-format json|avro IN OUT.tfrecord}: the streaming job's
 * conversion ({@code source.format}) over a file: a JSON Lines file or an Avro container file to a
 * TFRecord file of the schema's Examples. A line per refused record on stderr; the output appears
 * only when the input was read to its end.
 */
@Command(
        name = "convert",
        header = "Converts JSON Lines or an Avro container file to a TFRecord file of Examples.",
        mixinStandardHelpOptions = true,
        description = {
            "Converts each record of IN (json: one JSON object per line; avro: an Avro container"
                    + " file, its schema as the writer schema) to the schema's tf.train.Example,"
                    + " by the rules of source.format (docs/conversion.md), and writes them to"
                    + " OUT (.gz gzip, .zz/.zlib zlib, else uncompressed).",
            "Prints 'IN: N records, C converted, R refused, F fields ignored, OUT'; one"
                    + " 'IN:LINE: field PATH: why' (json) or 'IN: record N: field PATH: why'"
                    + " (avro) line per refused record on stderr. Exit code 1 when a record was"
                    + " refused, 2 when IN is unreadable or damaged, 3 when the schema or the"
                    + " Avro schema is rejected."
        })
final class ConvertCommand implements Callable<Integer> {
    /** The longest JSON line read. */
    static final int MAX_LINE_BYTES = 64 << 20;

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--schema",
            required = true,
            paramLabel = "SCHEMA",
            description = "TFMD Schema (.pbtxt or .pb) or SPEC.json: the features to write.")
    private Path schema;

    @Option(
            names = "--input-format",
            required = true,
            paramLabel = "json|avro",
            description = "What IN holds: json (JSON Lines) or avro (an Avro container file).")
    private String format;

    @Option(
            names = "--json-bytes",
            defaultValue = "utf8",
            paramLabel = "utf8|base64",
            description = "JSON strings for BYTES features: utf8 (default) or base64.")
    private String jsonBytes;

    @Option(
            names = "--flatten",
            description = "Read nested objects and records as features named parent.child.")
    private boolean flatten;

    @Parameters(index = "0", paramLabel = "IN", description = "JSON Lines or Avro container file.")
    private Path in;

    @Parameters(index = "1", paramLabel = "OUT.tfrecord", description = "The TFRecord file.")
    private Path out;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InputFormat f;
        try {
            f = InputFormat.valueOf(format.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            f = InputFormat.EXAMPLE;
        }
        if (f == InputFormat.EXAMPLE || !(jsonBytes.equals("utf8") || jsonBytes.equals("base64"))) {
            err.println(
                    "tfstream convert: --input-format must be json or avro and --json-bytes utf8"
                            + " or base64");
            return ExitCodes.USAGE;
        }
        ConvertFeatures features;
        try {
            ParseSpec parsed = SpecSource.load(schema, FixedLenDefaults.NONE);
            features = ConvertFeatures.of(parsed);
        } catch (SpecRejectedException | IllegalArgumentException e) {
            err.println("tfstream convert: " + schema + " was rejected: " + e.getMessage());
            return ExitCodes.SPEC_REJECTED;
        } catch (MalformedSpecFileException e) {
            err.println("tfstream convert: " + schema + " is not readable: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (IOException e) {
            err.println("tfstream convert: " + FileErrors.describe(schema, e));
            return ExitCodes.USAGE;
        }
        ConvertOptions options = new ConvertOptions(jsonBytes.equals("base64"), flatten, null);
        Path tmp = out.resolveSibling("." + out.getFileName() + ".tmp");
        Counts counts = new Counts();
        try (TfRecordWriter w = TfRecordFiles.newWriter(tmp, compressionOf(out))) {
            if (f == InputFormat.JSON) {
                json(new JsonToExample(features, options), w, counts, err);
            } else {
                avro(features, options, w, counts, err);
            }
        } catch (AvroSchemaRejectedException e) {
            deleteQuietly(tmp, err);
            err.println("tfstream convert: the Avro schema of " + in + ": " + e.getMessage());
            return ExitCodes.SPEC_REJECTED;
        } catch (IOException e) {
            deleteQuietly(tmp, err);
            err.println("tfstream convert: " + FileErrors.describe(in, e));
            return ExitCodes.USAGE;
        }
        try {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            err.println("tfstream convert: " + FileErrors.describe(out, e));
            return ExitCodes.USAGE;
        }
        stdout.printf(
                "%s: %d records, %d converted, %d refused, %d fields ignored, %s%n",
                in, counts.records, counts.converted, counts.refused, counts.ignored, out);
        return counts.refused > 0 ? ExitCodes.DATA_ERROR : ExitCodes.OK;
    }

    private static final class Counts {
        long records;
        long converted;
        long refused;
        long ignored;
    }

    private void json(ExampleConverter c, TfRecordWriter w, Counts counts, PrintWriter err)
            throws IOException {
        try (JsonLines lines = new JsonLines(in, MAX_LINE_BYTES)) {
            while (lines.next()) {
                byte[] line = lines.line();
                one(c, line, w, counts, err, in + ":" + lines.lineNumber() + ": ");
            }
        }
    }

    private void avro(
            ConvertFeatures features,
            ConvertOptions options,
            TfRecordWriter w,
            Counts counts,
            PrintWriter err)
            throws IOException {
        try (AvroContainer file = new AvroContainer(in)) {
            ExampleConverter c = new AvroToExample(file.schema(), features, options);
            byte[] record;
            while ((record = file.next()) != null) {
                one(c, record, w, counts, err, in + ": record " + (counts.records + 1) + ": ");
            }
        }
    }

    private static void one(
            ExampleConverter c,
            byte[] record,
            TfRecordWriter w,
            Counts counts,
            PrintWriter err,
            String where)
            throws IOException {
        counts.records++;
        try {
            byte[] example = c.convert(record, 0, record.length);
            w.write(example);
            counts.converted++;
            counts.ignored += c.ignoredFields();
        } catch (ConversionException e) {
            counts.refused++;
            err.println(where + e.getMessage());
        }
    }

    private static Compression compressionOf(Path file) {
        String name = file.getFileName().toString();
        if (name.endsWith(".gz")) {
            return Compression.GZIP;
        }
        return name.endsWith(".zz") || name.endsWith(".zlib") ? Compression.ZLIB : Compression.NONE;
    }

    private static void deleteQuietly(Path tmp, PrintWriter err) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            err.println("tfstream convert: could not remove " + tmp + ": " + e);
        }
    }
}
