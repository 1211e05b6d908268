package io.tfstream.fuzz;

import static io.tfstream.testing.FeatureWire.bytesFeature;
import static io.tfstream.testing.FeatureWire.entry;
import static io.tfstream.testing.FeatureWire.example;
import static io.tfstream.testing.FeatureWire.floatFeature;
import static io.tfstream.testing.FeatureWire.int64Feature;

import io.tfstream.spec.FeatureSpecs;
import io.tfstream.testing.RecordMutator;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testing.WireEdgeCaseGenerator;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import io.tfstream.testing.sequence.SequenceFuzzRecords;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the seed corpus under {@code src/test/resources/io/tfstream/fuzz/<Test>Inputs/<method>/}
 * from the schema module's record generators, deterministically; kept findings are left alone. Run
 * from the {@code fuzz} module directory after changing a generator or {@link FuzzSpecs} (the
 * command is in FUZZING.md); the optional argument is the directory of golden spec files.
 */
public final class SeedCorpusWriter {
    private static final Path ROOT = Path.of("src/test/resources/io/tfstream/fuzz");
    private static final int TIGHT = 0x80;

    private SeedCorpusWriter() {}

    public static void main(String[] args) throws IOException {
        Path golden =
                Path.of(
                        args.length > 0
                                ? args[0]
                                : "../schema/src/test/resources/golden/schema-to-spec");
        exampleSeeds(dir("ExampleParserFuzzTestInputs/parse"));
        convertedSeeds(
                dir("ExampleParserFuzzTestInputs/parse"),
                dir("ConvertedColumnsFuzzTestInputs/json"),
                dir("ConvertedColumnsFuzzTestInputs/avro"));
        sequenceSeeds(dir("SequenceExampleParserFuzzTestInputs/parseBatch"), true);
        sequenceSeeds(dir("SequenceExampleParserFuzzTestInputs/parseSingle"), false);
        tfRecordSeeds(dir("TfRecordReaderFuzzTestInputs/read"));
        copy(golden, ".spec.json", dir("SpecReaderFuzzTestInputs/specJson"));
        copy(golden, ".pbtxt", dir("SpecReaderFuzzTestInputs/schema"));
    }

    private static void exampleSeeds(Path out) throws IOException {
        List<FeatureSpecs> specs = FuzzSpecs.EXAMPLE;
        RecordMutator mutator = new RecordMutator(3);
        write(out, "empty-batch", FuzzRecords.encode(0, List.of()));
        write(out, "seed001", FuzzRecords.encode(0, Seed001Corpus.records(4, 1)));
        write(out, "seed001-tight", FuzzRecords.encode(TIGHT, Seed001Corpus.records(4, 2)));
        write(out, "wide-profile", FuzzRecords.encode(6, WideProfileCorpus.records(2, 1)));
        write(
                out,
                "ragged-partitions",
                FuzzRecords.encode(4, List.of(raggedRecord(), raggedRecord())));
        write(
                out,
                "ragged-partitions-tight",
                FuzzRecords.encode(4 | TIGHT, List.of(raggedRecord())));
        write(out, "sparse", FuzzRecords.encode(5, List.of(sparseRecord(), sparseRecord())));
        write(out, "sparse-tight", FuzzRecords.encode(5 | TIGHT, List.of(sparseRecord())));
        List<byte[]> mutants = new ArrayList<>();
        for (byte[] r : List.of(raggedRecord(), sparseRecord())) {
            for (int i = 0; i < 4; i++) {
                mutants.add(mutator.mutate(r, 3));
            }
        }
        write(out, "ragged-mutated", FuzzRecords.encode(4, mutants.subList(0, 4)));
        write(out, "sparse-mutated", FuzzRecords.encode(5, mutants.subList(4, 8)));
        for (int i = 0; i < specs.size(); i++) {
            WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(100 + i);
            FeatureSpecs spec = specs.get(i);
            if (i == 4 || i == 5) {
                continue; // partitions and SparseFeature: the generator knows neither
            }
            write(out, "spec" + i + "-valid", FuzzRecords.encode(i, gen.batch(spec, 4, 0)));
            write(out, "spec" + i + "-edge", FuzzRecords.encode(i, gen.batch(spec, 6, 0.5)));
            write(
                    out,
                    "spec" + i + "-bad-tight",
                    FuzzRecords.encode(i | TIGHT, gen.batch(spec, 4, 1)));
            List<byte[]> mutated = new ArrayList<>();
            for (byte[] r : gen.batch(spec, 4, 0)) {
                mutated.add(mutator.mutate(r, 2));
            }
            write(out, "spec" + i + "-mutated", FuzzRecords.encode(i, mutated));
        }
    }

    /**
     * The Example seeds' batches written as JSON and as Avro records (each record that is an
     * Example of the spec's feature types; the others left out), with the same configuration.
     */
    private static void convertedSeeds(Path examples, Path json, Path avro) throws IOException {
        List<Path> seeds;
        try (var files = Files.list(examples)) {
            seeds = files.filter(f -> !f.getFileName().toString().startsWith("finding")).toList();
        }
        for (Path seed : seeds) {
            byte[] data = Files.readAllBytes(seed);
            int config = FuzzRecords.config(data);
            FeatureSpecs spec = FuzzSpecs.EXAMPLE.get((config & 0x3f) % FuzzSpecs.EXAMPLE.size());
            io.tfstream.convert.ConvertFeatures features =
                    io.tfstream.convert.ConvertFeatures.of(spec);
            io.tfstream.testing.ExampleAvro writer =
                    new io.tfstream.testing.ExampleAvro(features.asMap());
            List<byte[]> asJson = new ArrayList<>();
            List<byte[]> asAvro = new ArrayList<>();
            for (byte[] r : FuzzRecords.records(data)) {
                org.tensorflow.example.Example e;
                try {
                    e = org.tensorflow.example.Example.parseFrom(r);
                    asAvro.add(writer.of(e));
                } catch (IOException | RuntimeException notThisSpecs) {
                    continue;
                }
                asJson.add(io.tfstream.testing.ExampleJson.of(e, false));
            }
            String name = seed.getFileName().toString();
            write(json, name, FuzzRecords.encode(config, asJson));
            write(avro, name, FuzzRecords.encode(config, asAvro));
        }
    }

    /** Values and partition keys for every Ragged feature of spec 4. */
    private static byte[] raggedRecord() {
        return example(
                entry("f", floatFeature(1, 2, 3, 4)),
                entry("i", int64Feature(5, 6, 7)),
                entry("s", bytesFeature(utf8("a"), utf8("b"), utf8("c"), utf8("d"))),
                entry("rl", int64Feature(1, 2)),
                entry("rs", int64Feature(0, 1, 2)),
                entry("vr", int64Feature(0, 0, 1)),
                entry("st", int64Feature(0)),
                entry("lm", int64Feature(2, 4)));
    }

    /** Index and value keys for every SparseFeature of spec 5. */
    private static byte[] sparseRecord() {
        return example(
                entry("ix", int64Feature(0, 3, 4)),
                entry("iy", int64Feature(0, 1, 2)),
                entry("i", int64Feature(1, 2, 3)),
                entry("f", floatFeature(1, 2, 3)),
                entry("s", bytesFeature(utf8("a"), utf8("b"), utf8("c"))));
    }

    private static void sequenceSeeds(Path out, boolean batch) throws IOException {
        List<byte[]> edge = new ArrayList<>();
        for (SequenceEdgeCases.Case c : SequenceEdgeCases.cases(5)) {
            edge.add(c.record());
        }
        List<byte[]> required = new ArrayList<>();
        for (SequenceEdgeCases.Case c : SequenceEdgeCases.requiredCases()) {
            required.add(c.record());
        }
        RandomSequenceExamples random = new RandomSequenceExamples(7);
        List<byte[]> randomRecords = new ArrayList<>();
        var randomSpec = random.spec();
        for (int i = 0; i < 6; i++) {
            randomRecords.add(random.record(randomSpec));
        }
        SequenceFuzzRecords faulty = new SequenceFuzzRecords(11);
        List<byte[]> faultyRecords = new ArrayList<>();
        var faultySpec = faulty.spec();
        for (int i = 0; i < 6; i++) {
            faultyRecords.add(faulty.record(faultySpec, 0.5));
        }
        List<List<byte[]>> bySpec = List.of(edge, required, randomRecords, faultyRecords);
        for (int s = 0; s < bySpec.size(); s++) {
            List<byte[]> records = bySpec.get(s);
            if (batch) {
                for (int from = 0; from < records.size(); from += FuzzRecords.MAX_RECORDS) {
                    List<byte[]> chunk =
                            records.subList(
                                    from, Math.min(records.size(), from + FuzzRecords.MAX_RECORDS));
                    write(out, "spec" + s + "-batch" + from, FuzzRecords.encode(s, chunk));
                }
                write(
                        out,
                        "spec" + s + "-tight",
                        FuzzRecords.encode(s | TIGHT, records.subList(0, 2)));
            } else {
                for (int i = 0; i < records.size(); i++) {
                    write(out, "spec" + s + "-record" + i, single(s, records.get(i)));
                }
                write(
                        out,
                        "spec" + s + "-tight",
                        single(s | TIGHT, records.get(records.size() - 1)));
            }
        }
    }

    private static byte[] single(int config, byte[] record) {
        byte[] b = new byte[record.length + 1];
        b[0] = (byte) config;
        System.arraycopy(record, 0, b, 1, record.length);
        return b;
    }

    private static void tfRecordSeeds(Path out) throws IOException {
        List<byte[]> records = Seed001Corpus.records(3, 4);
        records.add(new byte[0]);
        RecordMutator mutator = new RecordMutator(9);
        Compression[] kinds = Compression.values();
        for (int k = 0; k < kinds.length; k++) {
            byte[] file = tfRecordFile(kinds[k], records);
            String name = kinds[k].name().toLowerCase(java.util.Locale.ROOT);
            // Fixed compression, default limit.
            write(out, name, single(k | 0x18, file));
            // Detected, skipping damage, small limit, smallest buffer, one byte per read.
            write(out, name + "-auto-skip-picky", single(0x03 | 0x04 | 0x10 | 0x20 | 0x40, file));
            write(out, name + "-truncated", single(k | 0x18, Arrays.copyOf(file, file.length - 5)));
            write(out, name + "-mutated-skip", single(k | 0x04 | 0x18, mutator.mutate(file, 3)));
        }
        byte[] plain = tfRecordFile(Compression.NONE, records);
        byte[] damaged = plain.clone();
        damaged[20] ^= 0x40;
        write(out, "none-damaged-skip", single(0x04 | 0x18, damaged));
        write(out, "none-damaged-stop", single(0x18, damaged));
        write(out, "none-limit-exceeded", single(0x08, plain));
        write(out, "empty-file", single(0x03, new byte[0]));
        write(out, "gzip-named-auto", single(0x83 | 0x18, tfRecordFile(Compression.GZIP, records)));
    }

    private static byte[] tfRecordFile(Compression c, List<byte[]> records) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TfRecordWriter w = TfRecordWriter.builder(bytes).compression(c).build()) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        return bytes.toByteArray();
    }

    private static void copy(Path from, String suffix, Path out) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(from, "*" + suffix)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                write(
                        out,
                        name.substring(0, name.length() - suffix.length()),
                        Files.readAllBytes(f));
            }
        }
    }

    private static Path dir(String relative) throws IOException {
        Path d = ROOT.resolve(relative);
        Files.createDirectories(d);
        return d;
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.write(dir.resolve(name), bytes);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
