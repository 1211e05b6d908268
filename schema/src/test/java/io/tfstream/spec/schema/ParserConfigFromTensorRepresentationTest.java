package io.tfstream.spec.schema;

import static io.tfstream.spec.schema.TensorRepresentationsTest.tr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.FeatureType;

/** tfx-bsl's {@code CreateTfExampleParserConfig} cases (S40–S45) and its other errors. */
class ParserConfigFromTensorRepresentationTest {
    private static final String DENSE2 =
            "dense_tensor { column_name: 'dense_column' shape { dim { size: 2 } } ";

    @Test
    void s40DenseDefaultsRepeatedToTheShape() throws Exception {
        assertEquals(
                FixedLenFeature.withDefault(List.of(2L), DType.INT64, DefaultValue.ofInt64(1, 1)),
                create(DENSE2 + "default_value { int_value: 1 } }", FeatureType.INT));
        assertEquals(
                FixedLenFeature.withDefault(
                        List.of(2L), DType.FLOAT32, DefaultValue.ofFloat32(1f, 1f)),
                create(DENSE2 + "default_value { float_value: 1.0 } }", FeatureType.FLOAT));
        byte[] d = "default".getBytes(StandardCharsets.UTF_8);
        assertEquals(
                FixedLenFeature.withDefault(List.of(2L), DType.STRING, DefaultValue.ofBytes(d, d)),
                create(DENSE2 + "default_value { bytes_value: 'default' } }", FeatureType.BYTES));
    }

    @Test
    void s41DenseWithoutDefaultIsRequired() throws Exception {
        assertEquals(
                FixedLenFeature.required(List.of(4L), DType.INT64),
                create(
                        "dense_tensor { column_name: 'dense_column' shape { dim { size: 4 } } }",
                        FeatureType.INT));
    }

    @Test
    void s42RaggedWithRowLengthsAndInt32Splits() throws Exception {
        assertEquals(
                new RaggedFeature(
                        DType.INT64,
                        "value",
                        List.of(new Partition.RowLengths("row_length")),
                        RowSplitsDType.INT32),
                create(
                        "ragged_tensor { feature_path { step: 'value' } partition { row_length:"
                                + " 'row_length' } row_partition_dtype: INT32 }",
                        FeatureType.INT));
        assertEquals(
                new RaggedFeature(DType.FLOAT32, "v", List.of(), RowSplitsDType.INT64),
                create(
                        "ragged_tensor { feature_path { step: 'v' } row_partition_dtype: INT64 }",
                        FeatureType.FLOAT));
    }

    @Test
    void s43SparseSizesAreTakenVerbatim() throws Exception {
        assertEquals(
                new SparseFeature(List.of("key"), "value", DType.STRING, List.of(-1L), false),
                create(
                        "sparse_tensor { index_column_names: ['key'] value_column_name: 'value'"
                                + " dense_shape { dim { size: -1 } } }",
                        FeatureType.BYTES));
        for (FeatureType t : List.of(FeatureType.INT, FeatureType.FLOAT, FeatureType.BYTES)) {
            FeatureSpec s =
                    create(
                            "sparse_tensor { index_column_names: ['key'] value_column_name:"
                                    + " 'value' dense_shape { dim { size: 1 } } }",
                            t);
            assertEquals(List.of(1L), ((SparseFeature) s).size());
        }
    }

    @Test
    void s44DefaultOfTheWrongKind() {
        assertEquals(
                "FeatureType: FLOAT is incompatible with default_value: -1",
                reason(
                        "dense_tensor { column_name: 'x' shape { dim { size: 1 } } default_value {"
                                + " int_value: -1 } }",
                        FeatureType.FLOAT));
        assertEquals(
                "FeatureType: INT is incompatible with default_value: 1.5",
                reason(DENSE2 + "default_value { float_value: 1.5 } }", FeatureType.INT));
        assertEquals(
                "FeatureType: INT is incompatible with default_value: b'\\xd0x'",
                reason(DENSE2 + "default_value { bytes_value: '\\xd0x' } }", FeatureType.INT));
        assertEquals(
                "FeatureType: INT is incompatible with default_value: 18446744073709551615",
                reason(
                        DENSE2 + "default_value { uint_value: 18446744073709551615 } }",
                        FeatureType.INT));
    }

    @Test
    void s45RaggedPathWithSeveralSteps() {
        assertEquals(
                "Parsing spec from a RaggedTensor with multiple steps in feature_path is not"
                        + " implemented.",
                reason(
                        "ragged_tensor { feature_path { step: 'foo' step: 'ragged_feature' } }",
                        FeatureType.INT));
        assertEquals(
                "RaggedTensor representation with empty feature_path.",
                reason("ragged_tensor { }", FeatureType.INT));
        assertEquals(
                "RaggedTensor partition type not implemented: None.",
                reason(
                        "ragged_tensor { feature_path { step: 'v' } partition { } }",
                        FeatureType.INT));
    }

    @Test
    void unsupportedFeatureTypeAndUnsetKind() {
        assertEquals(
                "The feature_type: 4 is not supported.",
                reason("varlen_sparse_tensor { column_name: 'x' }", FeatureType.STRUCT));
        assertEquals("TensorRepresentation: None is not supported.", reason("", FeatureType.INT));
        SchemaRejectedException e =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                ParserConfigFromTensorRepresentation.create(
                                        "feat", tr(""), FeatureType.INT, FixedLenDefaults.NONE));
        assertEquals(
                "TensorRepresentation: None is not supported. (feature 'feat')", e.getMessage());
        assertEquals("feat", e.feature());
    }

    @Test
    void legacyDefaultsFillOnlyMissingDefaults() throws Exception {
        assertEquals(
                FixedLenFeature.withDefault(List.of(2L), DType.INT64, DefaultValue.ofInt64(-1, -1)),
                ParserConfigFromTensorRepresentation.create(
                        "f",
                        tr("dense_tensor { column_name: 'c' shape { dim { size: 2 } } }"),
                        FeatureType.INT,
                        FixedLenDefaults.LEGACY));
        assertEquals(
                FixedLenFeature.withDefault(List.of(2L), DType.INT64, DefaultValue.ofInt64(7, 7)),
                ParserConfigFromTensorRepresentation.create(
                        "f",
                        tr(DENSE2 + "default_value { int_value: 7 } }"),
                        FeatureType.INT,
                        FixedLenDefaults.LEGACY));
    }

    @Test
    void unknownDimensionsAndHugeDefaultsAreRejectedWithTheFeatureName() {
        SchemaRejectedException e =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                ParserConfigFromTensorRepresentation.create(
                                        "feat",
                                        tr(
                                                "dense_tensor { column_name: 'c' shape { dim { size: -1"
                                                        + " } } }"),
                                        FeatureType.INT,
                                        FixedLenDefaults.LEGACY));
        assertEquals(
                "All dimensions of shape for FixedLenFeature need to be known but received [-1]"
                        + " (feature 'feat')",
                e.getMessage());
        SchemaRejectedException huge =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                ParserConfigFromTensorRepresentation.create(
                                        "feat",
                                        tr(
                                                "dense_tensor { column_name: 'c' shape { dim { size:"
                                                        + " 100000 } dim { size: 100000 } } }"),
                                        FeatureType.FLOAT,
                                        FixedLenDefaults.LEGACY));
        assertEquals(
                "default_value would be repeated to prod(shape) of [100000, 100000], more than"
                        + " 1048576 values (feature 'feat')",
                huge.getMessage());
    }

    private static FeatureSpec create(String text, FeatureType type) throws Exception {
        return ParserConfigFromTensorRepresentation.create(
                "feat", tr(text), type, FixedLenDefaults.NONE);
    }

    private static String reason(String text, FeatureType type) {
        return assertThrows(SchemaRejectedException.class, () -> create(text, type)).reason();
    }
}
