package io.tfstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.SequenceExample;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream inspect FILE...}: what a TFRecord file holds: records, bytes, compression, record
 * sizes, Example or SequenceExample, and per feature its kinds, presence and value counts.
 */
@Command(
        name = "inspect",
        header =
                "Describes TFRecord files: records, sizes, compression, features and their presence.",
        mixinStandardHelpOptions = true,
        description = {
            "Per file: 'FILE: N records, B bytes, <compression>, record size MIN..MAX (mean M),"
                    + " Example|SequenceExample', then one line per feature: name, kinds, presence"
                    + " fraction and value-count range (feature lists: steps). Then a total line.",
            "Records are SequenceExamples when any has feature lists (or with --seq). Feature"
                    + " statistics cover every record, or the first N with --sample N.",
            "Exit code 0, 1 when a file is damaged or a record is not an Example, 2 when a file"
                    + " cannot be read."
        })
final class InspectCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "TFRecord files.")
    private List<Path> files;

    @Option(
            names = "--sample",
            paramLabel = "N",
            description = "Feature statistics from the first N records.")
    private long sample = Long.MAX_VALUE;

    @Option(names = "--seq", description = "Read records as SequenceExamples.")
    private boolean seq;

    @Option(names = "--json", description = "One JSON object per file instead of text.")
    private boolean json;

    @CommandLine.Mixin private CompressionOption compression;

    /** Statistics of one feature (or feature list) over the inspected records. */
    private static final class Stats {
        final TreeSet<String> kinds = new TreeSet<>();
        long present;
        long minValues = Long.MAX_VALUE;
        long maxValues;

        void add(String kind, long values) {
            if (kind != null) {
                kinds.add(kind);
            }
            present++;
            minValues = Math.min(minValues, values);
            maxValues = Math.max(maxValues, values);
        }
    }

    @Override
    public Integer call() {
        Progress progress =
                Progress.onTerminal(
                        spec.commandLine().getOut(),
                        spec.commandLine().getErr(),
                        files.size(),
                        VerifyCommand.totalSize(files));
        PrintWriter out = progress.out();
        PrintWriter err = progress.err();
        if (sample < 0) {
            err.println("tfstream inspect: --sample must not be negative");
            return ExitCodes.USAGE;
        }
        int exit = ExitCodes.OK;
        long totalRecords = 0;
        long totalBytes = 0;
        for (Path file : files) {
            Map<String, Stats> features = new TreeMap<>();
            Map<String, Stats> lists = new TreeMap<>();
            long records = 0;
            long inspected = 0;
            long minSize = Long.MAX_VALUE;
            long maxSize = 0;
            long sumSize = 0;
            boolean sequence = seq;
            String damage = null;
            try (TfRecordReader reader =
                    ProgressInput.openReader(
                            file, compression.applyTo(TfRecordReadOptions.defaults()), progress)) {
                try {
                    while (reader.next()) {
                        records++;
                        int len = reader.length();
                        minSize = Math.min(minSize, len);
                        maxSize = Math.max(maxSize, len);
                        sumSize += len;
                        if (inspected >= sample) {
                            continue;
                        }
                        inspected++;
                        SequenceExample s = SequenceExample.parseFrom(reader.copy());
                        if (s.hasFeatureLists() && s.getFeatureLists().getFeatureListCount() > 0) {
                            sequence = true;
                        }
                        for (Map.Entry<String, Feature> e :
                                s.getContext().getFeatureMap().entrySet()) {
                            Feature f = e.getValue();
                            features.computeIfAbsent(e.getKey(), k -> new Stats())
                                    .add(kind(f), count(f));
                        }
                        for (Map.Entry<String, FeatureList> e :
                                s.getFeatureLists().getFeatureListMap().entrySet()) {
                            List<Feature> steps = e.getValue().getFeatureList();
                            lists.computeIfAbsent(e.getKey(), k -> new Stats())
                                    .add(steps.isEmpty() ? null : kind(steps.get(0)), steps.size());
                        }
                    }
                } catch (InvalidProtocolBufferException e) {
                    damage =
                            "record "
                                    + records
                                    + " is not "
                                    + (seq ? "a SequenceExample" : "an Example")
                                    + ": "
                                    + e.getMessage();
                } catch (CorruptRecordException e) {
                    damage = VerifyCommand.damageLine(file, e);
                }
                long bytes = Files.size(file);
                totalRecords += records;
                totalBytes += bytes;
                String type = sequence ? "SequenceExample" : "Example";
                if (json) {
                    ObjectNode o =
                            JSON.createObjectNode()
                                    .put("file", file.toString())
                                    .put("records", records)
                                    .put("bytes", bytes)
                                    .put("compression", reader.compression().cliName())
                                    .put("type", type)
                                    .put("inspected", inspected);
                    if (records > 0) {
                        o.putObject("record_size")
                                .put("min", minSize)
                                .put("max", maxSize)
                                .put("mean", (double) sumSize / records);
                    }
                    put(o.putObject(sequence ? "context" : "features"), features, inspected);
                    if (sequence) {
                        put(o.putObject("feature_lists"), lists, inspected);
                    }
                    if (damage != null) {
                        o.put("error", damage);
                    }
                    out.println(o);
                } else {
                    out.println(
                            file
                                    + ": "
                                    + records
                                    + " records, "
                                    + bytes
                                    + " bytes, "
                                    + reader.compression().cliName()
                                    + (records > 0
                                            ? String.format(
                                                    Locale.ROOT,
                                                    ", record size %d..%d (mean %.1f)",
                                                    minSize,
                                                    maxSize,
                                                    (double) sumSize / records)
                                            : "")
                                    + ", "
                                    + type);
                    print(out, sequence ? "context " : "", features, inspected, "values");
                    print(out, "feature_list ", lists, inspected, "steps");
                    if (damage != null) {
                        out.println("  " + damage);
                    }
                }
                if (damage != null) {
                    exit = Math.max(exit, ExitCodes.DATA_ERROR);
                }
            } catch (IOException e) {
                err.println("tfstream inspect: " + FileErrors.describe(file, e));
                exit = ExitCodes.USAGE;
            }
            progress.fileDone(VerifyCommand.sizeOf(file));
        }
        progress.done();
        if (!json) {
            out.println(
                    "total: "
                            + totalRecords
                            + " records, "
                            + totalBytes
                            + " bytes in "
                            + files.size()
                            + " files");
        }
        return exit;
    }

    private static void print(
            PrintWriter out, String prefix, Map<String, Stats> stats, long n, String what) {
        for (Map.Entry<String, Stats> e : stats.entrySet()) {
            Stats s = e.getValue();
            out.println(
                    String.format(
                            Locale.ROOT,
                            "  %s%s  %s  presence %.3f  %s %d..%d",
                            prefix,
                            e.getKey(),
                            s.kinds.isEmpty() ? "empty" : String.join("|", s.kinds),
                            (double) s.present / n,
                            what,
                            s.minValues,
                            s.maxValues));
        }
    }

    private static void put(ObjectNode into, Map<String, Stats> stats, long n) {
        for (Map.Entry<String, Stats> e : stats.entrySet()) {
            Stats s = e.getValue();
            ObjectNode f = into.putObject(e.getKey());
            s.kinds.forEach(f.putArray("kinds")::add);
            f.put("presence", (double) s.present / n);
            f.putObject("values").put("min", s.minValues).put("max", s.maxValues);
        }
    }

    private static String kind(Feature f) {
        switch (f.getKindCase()) {
            case INT64_LIST:
                return "int64";
            case FLOAT_LIST:
                return "float";
            case BYTES_LIST:
                return "bytes";
            default:
                return null;
        }
    }

    private static long count(Feature f) {
        switch (f.getKindCase()) {
            case INT64_LIST:
                return f.getInt64List().getValueCount();
            case FLOAT_LIST:
                return f.getFloatList().getValueCount();
            case BYTES_LIST:
                return f.getBytesList().getValueCount();
            default:
                return 0;
        }
    }
}
