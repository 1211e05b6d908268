package io.tfstream.tensor.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.FeatureWire;
import java.io.IOException;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchJsonWriterTest {

    private static String write(StringEncoding enc, Map<String, Tensor> features)
            throws IOException {
        StringWriter out = new StringWriter();
        try (BatchJsonWriter w = new BatchJsonWriter(out, enc)) {
            w.writeBatch(0, features);
        }
        return out.toString();
    }

    @Test
    void denseInt64IsExactOverTheFullRange() throws IOException {
        Tensor t =
                new DenseTensor(
                        new long[] {2, 2}, Column.int64s(Long.MIN_VALUE, Long.MAX_VALUE, 0, -1));
        assertEquals(
                "{\"batch\":0,\"features\":{\"a\":{\"kind\":\"dense\",\"dtype\":\"int64\","
                        + "\"shape\":[2,2],\"values\":[-9223372036854775808,9223372036854775807,0,-1]}}}\n",
                write(StringEncoding.BASE64, Map.of("a", t)));
    }

    @Test
    void float32UsesFloatToStringAndNamesNonFiniteValues() throws IOException {
        Tensor t =
                new DenseTensor(
                        new long[] {8},
                        Column.float32s(
                                0.1f,
                                1.0E-38f,
                                -0.0f,
                                Float.MAX_VALUE,
                                Float.intBitsToFloat(0x7fc00001),
                                Float.POSITIVE_INFINITY,
                                Float.NEGATIVE_INFINITY,
                                1f));
        assertEquals(
                "{\"batch\":0,\"features\":{\"f\":{\"kind\":\"dense\",\"dtype\":\"float32\","
                        + "\"shape\":[8],\"values\":[0.1,1.0E-38,-0.0,3.4028235E38,\"NaN\","
                        + "\"Infinity\",\"-Infinity\",1.0]}}}\n",
                write(StringEncoding.BASE64, Map.of("f", t)));
    }

    @Test
    void stringsAsBase64OrStrictUtf8WithFallback() throws IOException {
        Column values =
                Column.strings(
                        "hi".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        new byte[0],
                        new byte[] {(byte) 0xc3, (byte) 0xa9},
                        new byte[] {(byte) 0xff},
                        new byte[] {(byte) 0xc0, (byte) 0x80},
                        new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                        new byte[] {'"', 0x01});
        Tensor t =
                new SparseTensor(
                        new long[] {0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2, 2, 0},
                        values,
                        new long[] {3, 3});
        String head =
                "{\"batch\":0,\"features\":{\"s\":{\"kind\":\"sparse\",\"dtype\":\"string\","
                        + "\"indices\":[[0,0],[0,1],[0,2],[1,0],[1,1],[1,2],[2,0]],\"values\":";
        String tail = ",\"dense_shape\":[3,3]}}}\n";
        assertEquals(
                head + "[\"aGk=\",\"\",\"w6k=\",\"/w==\",\"wIA=\",\"7aCA\",\"IgE=\"]" + tail,
                write(StringEncoding.BASE64, Map.of("s", t)));
        assertEquals(
                head
                        + "[\"hi\",\"\",\"\u00e9\",{\"base64\":\"/w==\"},{\"base64\":\"wIA=\"},"
                        + "{\"base64\":\"7aCA\"},\"\\\"\\u0001\"]"
                        + tail,
                write(StringEncoding.UTF8, Map.of("s", t)));
    }

    @Test
    void raggedListsEveryLevelAndTheSplitsType() throws IOException {
        Tensor t =
                new RaggedTensor(
                        Column.float32s(1, 2, 3),
                        new long[] {3},
                        List.of(new long[] {0, 2, 2, 3}),
                        RowSplitsDType.INT32);
        assertEquals(
                "{\"batch\":0,\"features\":{\"r\":{\"kind\":\"ragged\",\"dtype\":\"float32\","
                        + "\"values\":[1.0,2.0,3.0],\"values_shape\":[3],\"row_splits\":[[0,2,2,3]],"
                        + "\"row_splits_dtype\":\"int32\"}}}\n",
                write(StringEncoding.BASE64, Map.of("r", t)));
    }

    @Test
    void featuresAreSortedByCodePoint() throws IOException {
        Map<String, Tensor> m = new LinkedHashMap<>();
        Tensor t = new DenseTensor(new long[] {0}, Column.int64s());
        for (String k : new String[] {"\uD83D\uDE00", "b", "\uFFFD", "Z", "a"}) {
            m.put(k, t);
        }
        String v = "{\"kind\":\"dense\",\"dtype\":\"int64\",\"shape\":[0],\"values\":[]}";
        assertEquals(
                "{\"batch\":0,\"features\":{\"Z\":"
                        + v
                        + ",\"a\":"
                        + v
                        + ",\"b\":"
                        + v
                        + ",\"\uFFFD\":"
                        + v
                        + ",\"\uD83D\uDE00\":"
                        + v
                        + "}}\n",
                write(StringEncoding.BASE64, m));
    }

    @Test
    void errorLinesAndSeveralLines() throws IOException {
        StringWriter out = new StringWriter();
        try (BatchJsonWriter w = new BatchJsonWriter(out, StringEncoding.BASE64)) {
            w.writeBatch(0, Map.of());
            w.writeError(1, "Could not parse example input, value: '\n\u0005'", "INVALID_ARGUMENT");
        }
        assertEquals(
                "{\"batch\":0,\"features\":{}}\n"
                        + "{\"batch\":1,\"error\":\"Could not parse example input, value: '\\n\\u0005'\","
                        + "\"code\":\"INVALID_ARGUMENT\"}\n",
                out.toString());
    }

    @Test
    void parsedBatchEndToEnd() throws Exception {
        FeatureSpecs spec =
                FeatureSpecs.of(
                        Map.<String, FeatureSpec>of(
                                "v", new VarLenFeature(DType.INT64),
                                "r",
                                        new RaggedFeature(
                                                DType.STRING,
                                                "r",
                                                List.of(),
                                                RowSplitsDType.INT64)));
        RecordBatch records =
                RecordBatch.of(
                        FeatureWire.example(
                                FeatureWire.entry("v", FeatureWire.int64Feature(7, -8)),
                                FeatureWire.entry("r", FeatureWire.stringFeature("x"))),
                        new byte[0]);
        Map<String, Tensor> features = ExampleBatchParser.create(spec).parse(records).features();
        assertEquals(
                "{\"batch\":0,\"features\":{\"r\":{\"kind\":\"ragged\",\"dtype\":\"string\","
                        + "\"values\":[\"x\"],\"values_shape\":[1],\"row_splits\":[[0,1,1]],"
                        + "\"row_splits_dtype\":\"int64\"},\"v\":{\"kind\":\"sparse\",\"dtype\":\"int64\","
                        + "\"indices\":[[0,0],[0,1]],\"values\":[7,-8],\"dense_shape\":[2,2]}}}\n",
                write(StringEncoding.UTF8, features));
    }

    @Test
    void utf8OutputStreamMatchesTheWriterForm() throws IOException {
        Map<String, Tensor> m =
                Map.of(
                        "k\u00e9y",
                        new DenseTensor(
                                new long[] {1},
                                Column.strings(new byte[] {(byte) 0xc3, (byte) 0xa9})));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (BatchJsonWriter w = new BatchJsonWriter(bytes, StringEncoding.UTF8)) {
            w.writeBatch(7, m);
        }
        String expected =
                "{\"batch\":7,\"features\":{\"k\u00e9y\":{\"kind\":\"dense\",\"dtype\":\"string\","
                        + "\"shape\":[1],\"values\":[\"\u00e9\"]}}}\n";
        assertEquals(expected, bytes.toString(java.nio.charset.StandardCharsets.UTF_8));
        StringWriter chars = new StringWriter();
        try (BatchJsonWriter w = new BatchJsonWriter(chars, StringEncoding.UTF8)) {
            w.writeBatch(7, m);
        }
        assertEquals(expected, chars.toString());
    }

    @Test
    void stringEncodingNames() {
        assertEquals(StringEncoding.BASE64, StringEncoding.fromName("base64"));
        assertEquals(StringEncoding.UTF8, StringEncoding.fromName("utf8"));
        assertThrows(IllegalArgumentException.class, () -> StringEncoding.fromName("hex"));
    }
}
