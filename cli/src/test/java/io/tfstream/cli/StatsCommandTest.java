package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;
import org.tensorflow.metadata.v0.Schema;

/**
 * {@code tfstream stats} and {@code tfstream schema infer}: the statistics of a file in each form,
 * and the round trip a newcomer without a schema makes: statistics → inferred schema → the spec
 * tfstream derives from it, a parse of the same records with it (no record refused) and a
 * validation of them against it (no anomaly).
 */
class StatsCommandTest {
    @TempDir Path dir;

    private Path sample(int n, Compression c) throws Exception {
        Path f = dir.resolve("sample" + c.cliName() + ".tfrecord");
        Files.write(f, TfRecordTestData.write(Seed001Corpus.records(n, 5), c));
        return f;
    }

    @Test
    void statisticsInTextBinaryAndJsonAreTheLibrarysOverEveryRecord() throws Exception {
        Path f = sample(400, Compression.GZIP);
        ExampleStatistics expected = new ExampleStatistics(StatsOptions.DEFAULTS);
        for (byte[] r : Seed001Corpus.records(400, 5)) {
            expected.add(Example.parseFrom(r));
        }
        DatasetFeatureStatisticsList want =
                DatasetFeatureStatisticsList.newBuilder()
                        .addDatasets(expected.build("train"))
                        .build();

        CliRun text = CliRun.of("stats", "--name", "train", f.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertEquals(want, TextFormat.parse(text.out(), DatasetFeatureStatisticsList.class));

        Path pb = dir.resolve("stats.pb");
        CliRun binary = CliRun.of("stats", "--name", "train", "--out", pb.toString(), f.toString());
        assertEquals(0, binary.exitCode(), binary.err());
        assertEquals(want, DatasetFeatureStatisticsList.parseFrom(Files.readAllBytes(pb)));
        assertEquals(
                "400 examples, "
                        + want.getDatasets(0).getFeaturesCount()
                        + " features: "
                        + pb
                        + "\n",
                binary.out());

        CliRun json = CliRun.of("stats", "--json", f.toString());
        assertEquals(0, json.exitCode(), json.err());
        DatasetFeatureStatisticsList.Builder fromJson = DatasetFeatureStatisticsList.newBuilder();
        com.google.protobuf.util.JsonFormat.parser().merge(json.out(), fromJson);
        assertEquals(400, fromJson.getDatasets(0).getNumExamples());
    }

    /** The sketch options reach the library: its statistics with the same options. */
    @Test
    void sketchOptionsAreTheLibrarys() throws Exception {
        Path f = sample(300, Compression.NONE);
        for (String[] args :
                new String[][] {{"--epsilon", "0"}, {"--sketch-top-values", "--epsilon", "0.05"}}) {
            StatsOptions o =
                    args.length == 2
                            ? StatsOptions.DEFAULTS.withEpsilon(0)
                            : StatsOptions.DEFAULTS.withEpsilon(0.05).withSketchTopValues(true);
            ExampleStatistics expected = new ExampleStatistics(o);
            for (byte[] r : Seed001Corpus.records(300, 5)) {
                expected.add(Example.parseFrom(r));
            }
            List<String> cli = new ArrayList<>(List.of("stats"));
            cli.addAll(List.of(args));
            cli.add(f.toString());
            CliRun run = CliRun.of(cli.toArray(new String[0]));
            assertEquals(0, run.exitCode(), run.err());
            assertEquals(
                    expected.build(""),
                    TextFormat.parse(run.out(), DatasetFeatureStatisticsList.class).getDatasets(0));
        }
        CliRun bad = CliRun.of("stats", "--epsilon", "1.5", f.toString());
        assertEquals(ExitCodes.USAGE, bad.exitCode());
        assertEquals(
                "tfstream stats: statistics options: epsilon must be in [0, 1), got 1.5\n",
                bad.err());
    }

    /**
     * {@code --schema} shapes the statistics as TFDV's {@code StatsOptions(schema=...)}: the
     * library's statistics with the schema's roles; a categorical int gets string statistics, an
     * image feature bytes statistics.
     */
    @Test
    void aSchemaShapesTheStatisticsAsTfdvs() throws Exception {
        Path f = sample(300, Compression.NONE);
        Path schema = dir.resolve("schema.pbtxt");
        Files.writeString(
                schema,
                "feature { name: 'feature0' type: INT bool_domain { } }\n"
                        + "feature { name: 'feature1' type: INT int_domain { is_categorical: true } }\n"
                        + "feature { name: 'feature2' type: BYTES image_domain { } }\n"
                        + "feature { name: 'feature3' type: FLOAT }\n");
        ExampleStatistics expected =
                new ExampleStatistics(
                        StatsOptions.DEFAULTS,
                        null,
                        io.tfstream.stats.StatsRole.of(
                                TextFormat.parse(Files.readString(schema), Schema.class)));
        for (byte[] r : Seed001Corpus.records(300, 5)) {
            expected.add(Example.parseFrom(r));
        }
        CliRun run = CliRun.of("stats", "--schema", schema.toString(), f.toString());
        assertEquals(0, run.exitCode(), run.err());
        var got = TextFormat.parse(run.out(), DatasetFeatureStatisticsList.class).getDatasets(0);
        assertEquals(expected.build(""), got);
        assertTrue(got.getFeatures(1).hasStringStats(), "feature1 categorical");
        assertEquals(5, got.getFeatures(1).getStringStats().getUnique());
        assertTrue(got.getFeatures(2).hasBytesStats(), "feature2 an image");
        assertTrue(got.getFeatures(3).hasNumStats());

        Files.writeString(
                schema,
                "feature { name: 'feature3' type: FLOAT float_domain { is_categorical: true } }");
        CliRun floats = CliRun.of("stats", "--schema", schema.toString(), f.toString());
        assertEquals(ExitCodes.USAGE, floats.exitCode());
        assertEquals(
                "tfstream stats: --schema: categorical float features in the schema need sketched"
                        + " top values (TFDV: use_sketch_based_topk_uniques)\n",
                floats.err());
        assertEquals(
                0,
                CliRun.of(
                                "stats",
                                "--sketch-top-values",
                                "--schema",
                                schema.toString(),
                                f.toString())
                        .exitCode());
        Files.writeString(schema, "feature { name: ");
        assertEquals(
                ExitCodes.SPEC_REJECTED,
                CliRun.of("stats", "--schema", schema.toString(), f.toString()).exitCode());
    }

    @Test
    void weightedByAFeatureOfEveryRecord() throws Exception {
        Path f = sample(50, Compression.NONE);
        CliRun run = CliRun.of("stats", "--weight-feature", "feature1", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        var d = TextFormat.parse(run.out(), DatasetFeatureStatisticsList.class).getDatasets(0);
        assertTrue(d.getWeightedNumExamples() > 0);
        assertTrue(d.getFeatures(0).getNumStats().getCommonStats().hasWeightedCommonStats());
        CliRun missing = CliRun.of("stats", "--weight-feature", "nope", f.toString());
        assertEquals(ExitCodes.DATA_ERROR, missing.exitCode());
        assertEquals(
                "tfstream stats: record 0: the weight feature 'nope' must hold exactly one int64 or"
                        + " float value\n",
                missing.err());
        // SequenceExamples weighted by a context feature (an Example's bytes read as one: its
        // features are the context)
        CliRun seq = CliRun.of("stats", "--seq", "--weight-feature", "feature1", f.toString());
        assertEquals(0, seq.exitCode(), seq.err());
        assertEquals(
                d.getWeightedNumExamples(),
                TextFormat.parse(seq.out(), DatasetFeatureStatisticsList.class)
                        .getDatasets(0)
                        .getWeightedNumExamples());
    }

    @Test
    void aRecordThatIsNoExampleIsLeftOutAndNamed() throws Exception {
        List<byte[]> records = new ArrayList<>(Seed001Corpus.records(10, 1));
        records.add(3, new byte[] {(byte) 0xff, 0x01});
        Path f = dir.resolve("mixed.tfrecord");
        Files.write(f, TfRecordTestData.write(records, Compression.NONE));
        CliRun run = CliRun.of("stats", f.toString());
        assertEquals(ExitCodes.DATA_ERROR, run.exitCode());
        assertTrue(run.err().contains(f + ": record 3 at byte "), run.err());
        assertTrue(run.err().contains(" is not a tf.train.Example, left out"), run.err());
        assertEquals(
                10,
                TextFormat.parse(run.out(), DatasetFeatureStatisticsList.class)
                        .getDatasets(0)
                        .getNumExamples());
    }

    @Test
    void anInferredSchemaParsesAndValidatesTheDataItCameFrom() throws Exception {
        Path f = sample(600, Compression.NONE);
        Path pb = dir.resolve("stats.pb");
        assertEquals(0, CliRun.of("stats", "--out", pb.toString(), f.toString()).exitCode());
        CliRun fromStats = CliRun.of("schema", "infer", "--stats", pb.toString());
        assertEquals(0, fromStats.exitCode(), fromStats.err());
        CliRun fromFiles = CliRun.of("schema", "infer", f.toString());
        assertEquals(fromStats.out(), fromFiles.out(), "the same schema either way");
        Schema schema = TextFormat.parse(fromStats.out(), Schema.class);
        assertFalse(schema.getFeatureList().isEmpty());
        Path schemaFile = dir.resolve("schema.pbtxt");
        Files.writeString(schemaFile, fromStats.out());

        CliRun specRun = CliRun.of("spec", "--schema", schemaFile.toString());
        assertEquals(0, specRun.exitCode(), specRun.err());
        CliRun parse =
                CliRun.of("parse", "--schema", schemaFile.toString(), "--input", f.toString());
        assertEquals(0, parse.exitCode(), parse.err());
        assertFalse(parse.out().contains("\"error\""), "a batch refused: " + parse.err());
        CliRun validate = CliRun.of("validate", "--schema", schemaFile.toString(), f.toString());
        assertEquals(0, validate.exitCode(), validate.out() + validate.err());
        assertEquals("", validate.out(), "no anomaly on the data the schema came from");
    }

    @Test
    void sequenceExamplesPutTheirFeatureListsUnderTheSequenceStruct() throws Exception {
        org.tensorflow.example.SequenceExample s =
                org.tensorflow.example.SequenceExample.newBuilder()
                        .setContext(
                                org.tensorflow.example.Features.newBuilder()
                                        .putFeature(
                                                "user",
                                                io.tfstream.testkit.ProtoFeatures.int64s(7)))
                        .setFeatureLists(
                                org.tensorflow.example.FeatureLists.newBuilder()
                                        .putFeatureList(
                                                "clicks",
                                                org.tensorflow.example.FeatureList.newBuilder()
                                                        .addFeature(
                                                                io.tfstream.testkit.ProtoFeatures
                                                                        .int64s(1, 2))
                                                        .addFeature(
                                                                io.tfstream.testkit.ProtoFeatures
                                                                        .int64s(3))
                                                        .build()))
                        .build();
        Path f = dir.resolve("seq.tfrecord");
        Files.write(
                f,
                TfRecordTestData.write(
                        List.of(s.toByteArray(), s.toByteArray()), Compression.NONE));
        CliRun run = CliRun.of("stats", "--seq", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        var d = TextFormat.parse(run.out(), DatasetFeatureStatisticsList.class).getDatasets(0);
        assertEquals(
                List.of("user", "##SEQUENCE##", "##SEQUENCE##.clicks"),
                d.getFeaturesList().stream()
                        .map(x -> String.join(".", x.getPath().getStepList()))
                        .toList());
        var clicks = d.getFeatures(2).getNumStats().getCommonStats();
        assertEquals(6, clicks.getTotNumValues());
        assertEquals(2, clicks.getPresenceAndValencyStatsCount());
        assertEquals(4, clicks.getPresenceAndValencyStats(0).getTotNumValues(), "steps");
        // the inferred schema validates the SequenceExamples it came from; a parse needs tensor
        // representations for the feature lists, as TFX's does, which inference does not give
        CliRun infer = CliRun.of("schema", "infer", "--seq", f.toString());
        assertEquals(0, infer.exitCode(), infer.err());
        assertTrue(infer.out().contains("name: \"##SEQUENCE##\""), infer.out());
        Path schemaFile = dir.resolve("seq-schema.pbtxt");
        Files.writeString(schemaFile, infer.out());
        CliRun parse =
                CliRun.of("parse-seq", "--schema", schemaFile.toString(), "--input", f.toString());
        assertEquals(ExitCodes.SPEC_REJECTED, parse.exitCode());
        assertTrue(
                parse.out()
                        .contains("TensorRepresentations are required. (feature '##SEQUENCE##')"),
                parse.out());
        CliRun validate =
                CliRun.of("validate", "--seq", "--schema", schemaFile.toString(), f.toString());
        assertEquals(0, validate.exitCode(), validate.out() + validate.err());
        assertEquals("", validate.out());
    }

    @Test
    void inferenceUsageErrors() throws Exception {
        Path f = sample(5, Compression.NONE);
        assertEquals(ExitCodes.USAGE, CliRun.of("schema", "infer").exitCode());
        assertEquals(
                ExitCodes.USAGE,
                CliRun.of("schema", "infer", "--stats", f.toString(), f.toString()).exitCode());
        Path two = dir.resolve("two.pbtxt");
        Files.writeString(two, "datasets { name: 'train' } datasets { name: 'eval' }");
        CliRun run = CliRun.of("schema", "infer", "--stats", two.toString());
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(
                run.err()
                        .contains(
                                "the statistics hold 2 datasets; name one with --split: [train, eval]"),
                run.err());
        assertEquals(
                0,
                CliRun.of("schema", "infer", "--stats", two.toString(), "--split", "eval")
                        .exitCode());
    }
}
