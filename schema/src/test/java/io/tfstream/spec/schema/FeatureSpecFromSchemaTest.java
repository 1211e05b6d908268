package io.tfstream.spec.schema;

import static io.tfstream.spec.schema.TensorRepresentationsTest.group;
import static io.tfstream.spec.schema.TensorRepresentationsTest.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Behaviour of {@link FeatureSpecFromSchema} beyond the golden files. */
class FeatureSpecFromSchemaTest {
    private static final String SEQ =
            "feature { name: '##SEQUENCE##' type: STRUCT struct_domain { feature { name: 's'"
                    + " type: FLOAT } } } ";

    @Test
    void laterFeatureOfTheSameNameWins() throws Exception {
        assertEquals(
                FeatureSpecs.of(Map.of("x", new VarLenFeature(DType.FLOAT32))),
                FeatureSpecFromSchema.derive(
                                schema(
                                        "feature { name: 'x' type: INT } feature { name: 'x'"
                                                + " type: FLOAT }"))
                        .spec());
    }

    @Test
    void environmentsDoNotFilter() throws Exception {
        assertEquals(
                FeatureSpecs.of(Map.of("label", new VarLenFeature(DType.INT64))),
                FeatureSpecFromSchema.derive(
                                schema(
                                        "default_environment: 'TRAINING' default_environment:"
                                                + " 'SERVING' feature { name: 'label' type: INT"
                                                + " not_in_environment: 'SERVING' }"))
                        .spec());
    }

    @Test
    void explicitRepresentationMayReadADeprecatedFeature() throws Exception {
        assertEquals(
                FeatureSpecs.of(
                        Map.of(
                                "r",
                                new RaggedFeature(
                                        DType.STRING, "old", List.of(), RowSplitsDType.INT64))),
                FeatureSpecFromSchema.derive(
                                schema(
                                        "feature { name: 'old' type: BYTES lifecycle_stage:"
                                                + " DEPRECATED }"
                                                + group(
                                                        "r",
                                                        "ragged_tensor { feature_path { step:"
                                                                + " 'old' } }")))
                        .spec());
    }

    @Test
    void representationOfAnUnknownColumnIsRejected() {
        SchemaRejectedException e =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                FeatureSpecFromSchema.derive(
                                        schema(
                                                "feature { name: 'a' type: INT }"
                                                        + group(
                                                                "t",
                                                                "varlen_sparse_tensor {"
                                                                        + " column_name: 'nope'"
                                                                        + " }"))));
        assertEquals(
                "Features referred in TensorRepresentations but not found in the schema: {nope}"
                        + " (feature 't')",
                e.getMessage());
    }

    @Test
    void indexDomainMaxAtInt64LimitIsRejected() {
        SchemaRejectedException e =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                FeatureSpecFromSchema.derive(
                                        schema(
                                                "feature { name: 'i' type: INT int_domain { min: 0"
                                                        + " max: 9223372036854775807 } }"
                                                        + "feature { name: 'v' type: INT }"
                                                        + "sparse_feature { name: 'sp'"
                                                        + " index_feature { name: 'i' }"
                                                        + " value_feature { name: 'v' } }")));
        assertTrue(e.getMessage().startsWith("Sparse feature sp has index feature i"));
    }

    @Test
    void sequenceContextKeepsFixedLenAndGetsLegacyDefaults() throws Exception {
        String text =
                SEQ
                        + "feature { name: 'c' type: INT }"
                        + " tensor_representation_group { key: '' value {"
                        + " tensor_representation { key: 'c' value { dense_tensor { column_name:"
                        + " 'c' shape { } } } }"
                        + " tensor_representation { key: 's' value { ragged_tensor {"
                        + " feature_path { step: '##SEQUENCE##' step: 's' } row_partition_dtype:"
                        + " INT32 } } } } }";
        SequenceFeatureSpecs none = FeatureSpecFromSchema.derive(schema(text)).sequenceSpecs();
        assertEquals(FixedLenFeature.required(List.of(), DType.INT64), none.context().get("c"));
        assertEquals(
                new RaggedFeature(DType.FLOAT32, "s", List.of(), RowSplitsDType.INT32),
                none.featureLists().get("s"));
        SequenceFeatureSpecs legacy =
                FeatureSpecFromSchema.derive(schema(text), FixedLenDefaults.LEGACY).sequenceSpecs();
        assertEquals(
                FixedLenFeature.withDefault(List.of(), DType.INT64, DefaultValue.ofInt64(-1)),
                legacy.context().get("c"));
    }

    @Test
    void sequenceNameClashMergesWithFeatureListWinningInTftView() throws Exception {
        String text =
                SEQ
                        + "feature { name: 's' type: INT }"
                        + " tensor_representation_group { key: '' value {"
                        + " tensor_representation { key: 's' value { varlen_sparse_tensor {"
                        + " column_name: 's' } } } } }";
        SchemaSpec derived = FeatureSpecFromSchema.derive(schema(text));
        assertEquals(new VarLenFeature(DType.INT64), derived.sequenceSpecs().context().get("s"));
        assertEquals(0, derived.sequenceSpecs().featureLists().size());
        assertThrows(IllegalStateException.class, derived::exampleSpecs);
    }

    @Test
    void sequenceSchemaRejections() {
        assertEquals(
                "Struct features with sparse domains are not supported.",
                reason(
                        "feature { name: '##SEQUENCE##' type: STRUCT struct_domain {"
                                + " sparse_feature { name: 'x' } } }"
                                + group("a", "varlen_sparse_tensor { column_name: 'a' }")));
        assertTrue(
                reason(
                                "feature { name: 'a' type: STRUCT struct_domain { feature {"
                                        + " name: 'b' type: STRUCT struct_domain { feature {"
                                        + " name: 'c' type: INT } } } } }"
                                        + group(
                                                "t",
                                                "ragged_tensor { feature_path { step: 'a' step:"
                                                        + " 'b' step: 'c' } }"))
                        .startsWith(
                                "Only primitive or struct of primitive features are supported,"
                                        + " got ragged_tensor {"));
        assertEquals(
                "Features referred in TensorRepresentations but not found in the schema:"
                        + " {##SEQUENCE##.missing}",
                reason(
                        SEQ
                                + group(
                                        "t",
                                        "ragged_tensor { feature_path { step: '##SEQUENCE##' step:"
                                                + " 'missing' } }")));
        SchemaRejectedException sparseContext =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                FeatureSpecFromSchema.derive(
                                        schema(
                                                SEQ
                                                        + "feature { name: 'v' type: INT }"
                                                        + group(
                                                                "sp",
                                                                "sparse_tensor {"
                                                                        + " value_column_name: 'v'"
                                                                        + " dense_shape { } }"))));
        assertEquals("sp", sparseContext.feature());
        assertEquals(
                "A sparse_tensor cannot be a context feature of a SequenceExample:"
                        + " parse_sequence_example context features are FixedLen, VarLen or"
                        + " Ragged (feature 'sp')",
                sparseContext.getMessage());
    }

    private static String reason(String text) {
        return assertThrows(
                        SchemaRejectedException.class,
                        () -> FeatureSpecFromSchema.derive(schema(text)))
                .reason();
    }
}
