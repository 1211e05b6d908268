package io.tfstream.spec.schema;

import static io.tfstream.spec.schema.TensorRepresentationsTest.group;
import static io.tfstream.spec.schema.TensorRepresentationsTest.schema;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.TextFormat;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;

/**
 * The parse halves of tfx-bsl's parser-config cases (S40–S43): the specs derived from a schema
 * parse one Example as {@code parse_single_example} does, seen here as a batch of one.
 */
class DerivedSpecParsesTest {

    @Test
    void s40DenseDefaultsFillAMissingFeature() throws Exception {
        assertEquals(
                new DenseTensor(new long[] {1, 2}, Column.int64s(1, 1)),
                parse(dense("INT", "int_value: 1"), "").feature("feat"));
        assertEquals(
                new DenseTensor(new long[] {1, 2}, Column.float32s(1f, 1f)),
                parse(dense("FLOAT", "float_value: 1.0"), "").feature("feat"));
        byte[] d = "default".getBytes(StandardCharsets.UTF_8);
        assertEquals(
                new DenseTensor(new long[] {1, 2}, Column.strings(d, d)),
                parse(dense("BYTES", "bytes_value: 'default'"), "").feature("feat"));
    }

    @Test
    void s41DenseWithoutDefault() throws Exception {
        String schema =
                "feature { name: 'dense_column' type: INT }"
                        + group(
                                "feat",
                                "dense_tensor { column_name: 'feat' shape { dim { size: 4 } } }");
        assertEquals(
                new DenseTensor(new long[] {1, 4}, Column.int64s(1, 2, 3, 4)),
                parse(
                                schema.replace("'dense_column'", "'feat'"),
                                "features { feature { key: 'feat' value { int64_list { value: [1,"
                                        + " 2, 3, 4] } } } }")
                        .feature("feat"));
    }

    @Test
    void s42RaggedRowLengthsWithInt32Splits() throws Exception {
        String schema =
                "feature { name: 'value' type: INT } feature { name: 'row_length' type: INT }"
                        + group(
                                "ragged",
                                "ragged_tensor { feature_path { step: 'value' } partition {"
                                        + " row_length: 'row_length' } row_partition_dtype: INT32"
                                        + " }");
        RaggedTensor r =
                (RaggedTensor)
                        parse(
                                        schema,
                                        "features { feature { key: 'value' value { int64_list {"
                                                + " value: [1, 2, 3, 4] } } } feature { key:"
                                                + " 'row_length' value { int64_list { value: [3,"
                                                + " 1] } } } }")
                                .feature("ragged");
        assertEquals(RowSplitsDType.INT32, r.rowSplitsDtype());
        assertEquals(Column.int64s(1, 2, 3, 4), r.values());
        assertEquals(2, r.rowSplits().size());
        assertArrayEquals(new long[] {0, 2}, r.rowSplits().get(0));
        assertArrayEquals(new long[] {0, 3, 4}, r.rowSplits().get(1));
    }

    @Test
    void s43SparseWithUnknownSizeOnAnEmptyExample() throws Exception {
        String schema =
                "feature { name: 'key' type: INT } feature { name: 'value' type: BYTES }"
                        + group(
                                "feat",
                                "sparse_tensor { index_column_names: ['key'] value_column_name:"
                                        + " 'value' dense_shape { dim { size: -1 } } }");
        SparseTensor s = (SparseTensor) parse(schema, "").feature("feat");
        assertEquals(0, s.numValues());
        assertEquals(2, s.rank());
        assertArrayEquals(new long[] {1, -1}, s.denseShape());
    }

    private static String dense(String type, String defaultValue) {
        return "feature { name: 'dense_column' type: "
                + type
                + " }"
                + group(
                        "feat",
                        "dense_tensor { column_name: 'dense_column' shape { dim { size: 2 } }"
                                + " default_value { "
                                + defaultValue
                                + " } }");
    }

    private static ParsedBatch parse(String schemaText, String exampleText) throws Exception {
        ExampleBatchParser parser =
                ExampleBatchParser.create(
                        FeatureSpecFromSchema.derive(schema(schemaText)).exampleSpecs(),
                        ParseLimits.defaults());
        Example.Builder e = Example.newBuilder();
        TextFormat.merge(exampleText, e);
        return parser.parse(RecordBatch.of(List.of(e.build().toByteArray())));
    }
}
