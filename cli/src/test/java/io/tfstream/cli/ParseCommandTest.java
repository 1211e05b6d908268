package io.tfstream.cli;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;

/** {@code tfstream parse} and {@code parse-seq}: output lines, batching and exit codes. */
class ParseCommandTest {
    private static final String SPEC =
            "{\"a\":{\"type\":\"fixed_len\",\"dtype\":\"int64\",\"shape\":[]},"
                    + "\"s\":{\"type\":\"var_len\",\"dtype\":\"string\"}}";

    private static final String SCHEMA =
            "feature { name: \"a\" type: INT shape { } presence { min_fraction: 1.0 } }\n"
                    + "feature { name: \"s\" type: BYTES }\n";

    private static final String BATCH0 =
            "{\"batch\":0,\"features\":{"
                    + "\"a\":{\"kind\":\"dense\",\"dtype\":\"int64\",\"shape\":[2],\"values\":[1,2]},"
                    + "\"s\":{\"kind\":\"sparse\",\"dtype\":\"string\",\"indices\":[[0,0]],"
                    + "\"values\":[\"eA==\"],\"dense_shape\":[2,1]}}}";

    private static final String BATCH1 =
            "{\"batch\":1,\"features\":{"
                    + "\"a\":{\"kind\":\"dense\",\"dtype\":\"int64\",\"shape\":[1],\"values\":[3]},"
                    + "\"s\":{\"kind\":\"sparse\",\"dtype\":\"string\",\"indices\":[[0,0],[0,1]],"
                    + "\"values\":[\"eQ==\",\"eg==\"],\"dense_shape\":[1,2]}}}";

    @TempDir Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return TfstreamCli.run(new PrintWriter(out), new PrintWriter(err), args);
    }

    private List<String> lines() {
        return out.toString().lines().toList();
    }

    private static byte[] example(Feature a, Feature s) {
        Features.Builder f = Features.newBuilder().putFeature("a", a);
        if (s != null) {
            f.putFeature("s", s);
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    private Path records(String name, Compression c, byte[]... records) throws IOException {
        Path file = dir.resolve(name);
        try (TfRecordWriter w = TfRecordFiles.newWriter(file, c)) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        return file;
    }

    private Path text(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    private Path threeExamples(String name, Compression c) throws IOException {
        return records(
                name,
                c,
                example(int64s(1), strings("x")),
                example(int64s(2), strings()),
                example(int64s(3), strings("y", "z")));
    }

    @Test
    void featureSpecInputIsParsedInBatches() throws IOException {
        Path in = threeExamples("in.tfrecord", Compression.NONE);
        int exit =
                run(
                        "parse",
                        "--feature-spec",
                        text("spec.json", SPEC).toString(),
                        "--input",
                        in.toString(),
                        "--batch-size",
                        "2");
        assertEquals(ExitCodes.OK, exit, err.toString());
        assertEquals(List.of(BATCH0, BATCH1), lines());
    }

    @Test
    void schemaGivesTheSameOutputAndGzipIsDetected() throws IOException {
        Path in = threeExamples("in.tfrecord.gz", Compression.GZIP);
        int exit =
                run(
                        "parse",
                        "--schema",
                        text("schema.pbtxt", SCHEMA).toString(),
                        "--input",
                        in.toString(),
                        "--batch-size=2");
        assertEquals(ExitCodes.OK, exit, err.toString());
        assertEquals(List.of(BATCH0, BATCH1), lines());
    }

    @Test
    void utf8StringsArePrintedAsText() throws IOException {
        Path in = records("in.tfrecord", Compression.NONE, example(int64s(5), strings("héllo")));
        int exit =
                run(
                        "parse",
                        "--feature-spec",
                        text("spec.json", SPEC).toString(),
                        "--input",
                        in.toString(),
                        "--strings",
                        "utf8");
        assertEquals(ExitCodes.OK, exit, err.toString());
        assertTrue(lines().get(0).contains("\"values\":[\"héllo\"]"), out.toString());
    }

    @Test
    void aRejectedBatchPrintsTensorFlowsErrorAndTheOthersStillParse() throws IOException {
        Path in =
                records(
                        "in.tfrecord",
                        Compression.NONE,
                        example(int64s(1), strings("x")),
                        example(int64s(2), strings()),
                        example(int64s(3), strings("y", "z")),
                        example(floats(4f), null));
        int exit =
                run(
                        "parse",
                        "--feature-spec",
                        text("spec.json", SPEC).toString(),
                        "--input",
                        in.toString(),
                        "--batch-size",
                        "2");
        assertEquals(ExitCodes.DATA_ERROR, exit, err.toString());
        assertEquals(
                List.of(
                        BATCH0,
                        "{\"batch\":1,\"error\":\"Name: <unknown>, Key: a, Index: 1.  Data types"
                                + " don't match. Data type: float but expected type: int64\","
                                + "\"code\":\"INVALID_ARGUMENT\"}"),
                lines());
    }

    @Test
    void aCorruptFileExitsTwoNamingTheDamage() throws IOException {
        Path in = threeExamples("in.tfrecord", Compression.NONE);
        byte[] bytes = Files.readAllBytes(in);
        bytes[bytes.length - 6] ^= 0x40; // inside the last record's data
        Files.write(in, bytes);
        int exit =
                run(
                        "parse",
                        "--feature-spec",
                        text("spec.json", SPEC).toString(),
                        "--input",
                        in.toString());
        assertEquals(ExitCodes.USAGE, exit);
        assertEquals("", out.toString());
        String e = err.toString();
        assertTrue(e.contains(in.toString()) && e.contains("record 2"), e);
    }

    @Test
    void aRejectedSchemaPrintsTheSpecStageAndExitsThree() throws IOException {
        int exit =
                run(
                        "parse",
                        "--schema",
                        text("bad.pbtxt", "feature { name: \"x\" }").toString(),
                        "--input",
                        threeExamples("in.tfrecord", Compression.NONE).toString());
        assertEquals(ExitCodes.SPEC_REJECTED, exit);
        assertEquals(
                List.of(
                        "{\"stage\":\"spec\",\"error\":\"The feature_type: 0 is not supported. (feature 'x')\"}"),
                lines());
    }

    @Test
    void specAndSchemaAreMutuallyExclusiveAndBatchSizeMustBePositive() throws IOException {
        Path spec = text("spec.json", SPEC);
        Path in = threeExamples("in.tfrecord", Compression.NONE);
        assertEquals(
                ExitCodes.USAGE,
                run(
                        "parse",
                        "--feature-spec",
                        spec.toString(),
                        "--schema",
                        spec.toString(),
                        "--input",
                        in.toString()));
        assertEquals(
                ExitCodes.USAGE,
                run(
                        "parse",
                        "--feature-spec",
                        spec.toString(),
                        "--input",
                        in.toString(),
                        "--batch-size",
                        "0"));
        assertEquals("", out.toString());
    }

    @Test
    void parseSeqPrintsContextFeatureListsAndLengths() throws IOException {
        String seqSpec =
                "{\"context\":{\"c\":{\"type\":\"fixed_len\",\"dtype\":\"int64\",\"shape\":[]}},"
                        + "\"feature_lists\":{\"l\":{\"type\":\"fixed_len_seq\",\"dtype\":"
                        + "\"float32\",\"shape\":[],\"allow_missing\":true}}}";
        byte[] s0 =
                SequenceExample.newBuilder()
                        .setContext(Features.newBuilder().putFeature("c", int64s(7)))
                        .setFeatureLists(
                                FeatureLists.newBuilder()
                                        .putFeatureList(
                                                "l",
                                                FeatureList.newBuilder()
                                                        .addFeature(floats(1.5f))
                                                        .addFeature(floats(2.5f))
                                                        .build()))
                        .build()
                        .toByteArray();
        byte[] s1 =
                SequenceExample.newBuilder()
                        .setContext(Features.newBuilder().putFeature("c", int64s(8)))
                        .build()
                        .toByteArray();
        int exit =
                run(
                        "parse-seq",
                        "--feature-spec",
                        text("seqspec.json", seqSpec).toString(),
                        "--input",
                        records("seq.tfrecord", Compression.NONE, s0, s1).toString());
        assertEquals(ExitCodes.OK, exit, err.toString());
        assertEquals(
                List.of(
                        "{\"batch\":0,\"context\":{\"c\":{\"kind\":\"dense\",\"dtype\":\"int64\","
                                + "\"shape\":[2],\"values\":[7,8]}},\"feature_lists\":{\"l\":"
                                + "{\"kind\":\"dense\",\"dtype\":\"float32\",\"shape\":[2,2],"
                                + "\"values\":[1.5,2.5,0.0,0.0]}},"
                                + "\"feature_list_lengths\":{\"l\":[2,0]}}"),
                lines());
    }

    @Test
    void parseRefusesASequenceSpecWithExitThree() throws IOException {
        String seqSpec =
                "{\"context\":{},\"feature_lists\":{\"l\":{\"type\":\"var_len\",\"dtype\":"
                        + "\"int64\"}}}";
        int exit =
                run(
                        "parse",
                        "--feature-spec",
                        text("seqspec.json", seqSpec).toString(),
                        "--input",
                        threeExamples("in.tfrecord", Compression.NONE).toString());
        assertEquals(ExitCodes.SPEC_REJECTED, exit);
        assertTrue(lines().get(0).contains("use tfstream parse-seq"), out.toString());
    }

    @Test
    void sparseFeatureAndRaggedPartitionsArePrinted() throws IOException {
        String spec =
                "{\"sp\":{\"type\":\"sparse\",\"index_keys\":[\"i\"],\"value_key\":\"v\","
                        + "\"dtype\":\"float32\",\"size\":[5]},"
                        + "\"r\":{\"type\":\"ragged\",\"dtype\":\"int64\",\"value_key\":\"rv\","
                        + "\"partitions\":[{\"row_lengths\":\"rl\"}]}}";
        byte[] e0 =
                Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature("i", int64s(3, 1))
                                        .putFeature("v", floats(0.5f, 1.5f))
                                        .putFeature("rv", int64s(1, 2, 3))
                                        .putFeature("rl", int64s(2, 1)))
                        .build()
                        .toByteArray();
        byte[] e1 =
                Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature("i", int64s(0))
                                        .putFeature("v", floats(2.5f))
                                        .putFeature("rv", int64s(4))
                                        .putFeature("rl", int64s(0, 1)))
                        .build()
                        .toByteArray();
        int exit =
                run(
                        "parse",
                        "--feature-spec",
                        text("spec.json", spec).toString(),
                        "--input",
                        records("in.tfrecord", Compression.NONE, e0, e1).toString());
        assertEquals(ExitCodes.OK, exit, err.toString());
        assertEquals(
                List.of(
                        "{\"batch\":0,\"features\":{\"r\":{\"kind\":\"ragged\",\"dtype\":\"int64\","
                                + "\"values\":[1,2,3,4],\"values_shape\":[4],"
                                + "\"row_splits\":[[0,2,4],[0,2,3,3,4]],\"row_splits_dtype\":\"int32\"},"
                                + "\"sp\":{\"kind\":\"sparse\",\"dtype\":\"float32\","
                                + "\"indices\":[[0,1],[0,3],[1,0]],\"values\":[1.5,0.5,2.5],"
                                + "\"dense_shape\":[2,5]}}}"),
                lines());
    }
}
