package io.tfstream.spec.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.TextFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.TensorRepresentation;

/**
 * tfx-bsl's {@code InferTensorRepresentationsFromSchema} / {@code ...FromMixedSchema} and the
 * project / validate helpers, against the representations of tfx-bsl's own tests.
 */
class TensorRepresentationsTest {

    private static final String STRUCT =
            "feature { name: '##SEQUENCE##' type: STRUCT struct_domain {"
                    + " feature { name: 'int_feature' type: INT }"
                    + " feature { name: 'string_feature' type: BYTES } } }";

    @Test
    void varLenFixedShapeAndRaggedFlag() throws Exception {
        assertEquals(
                trs("x", "varlen_sparse_tensor { column_name: 'x' }"),
                TensorRepresentations.infer(schema("feature: {name: 'x' type: INT}")));
        assertEquals(
                trs("x", "dense_tensor { column_name: 'x' shape { dim { size: 1 } } }"),
                TensorRepresentations.infer(
                        schema(
                                "feature { name: 'x' type: INT shape { dim { size: 1 } }"
                                        + " presence { min_fraction: 1 } }")));
        assertEquals(
                trs("x", "ragged_tensor { feature_path { step: 'x' } }"),
                TensorRepresentations.infer(
                        schema(
                                "feature: {name: 'x' type: INT}"
                                        + " represent_variable_length_as_ragged: true")));
    }

    @Test
    void sparseFeaturesComeFirstAndConsumeTheirColumns() throws Exception {
        Schema s =
                schema(
                        "feature { name: 'a' type: FLOAT }"
                                + "feature { name: 'index_key' type: INT int_domain { min: 0 max:"
                                + " 11 } }"
                                + "feature { name: 'value_key' type: INT }"
                                + "sparse_feature { name: 'x' is_sorted: true index_feature {"
                                + " name: 'index_key' } value_feature { name: 'value_key' } }");
        Map<String, TensorRepresentation> got = TensorRepresentations.infer(s);
        assertEquals(List.of("x", "a"), List.copyOf(got.keySet()));
        assertEquals(
                tr(
                        "sparse_tensor { index_column_names: 'index_key' value_column_name:"
                                + " 'value_key' dense_shape { dim { size: 12 } } already_sorted:"
                                + " true }"),
                got.get("x"));
    }

    @Test
    void sparseNotSortedLeavesAlreadySortedUnset() throws Exception {
        TensorRepresentation got =
                TensorRepresentations.infer(
                                schema(
                                        "feature { name: 'value_key' type: INT }"
                                                + "sparse_feature { name: 'x' is_sorted: false"
                                                + " value_feature { name: 'value_key' } }"))
                        .get("x");
        assertEquals(tr("sparse_tensor { value_column_name: 'value_key' dense_shape { } }"), got);
        assertEquals(false, got.getSparseTensor().hasAlreadySorted());
    }

    @Test
    void s35StructChildrenBecomeRaggedTensors() throws Exception {
        Map<String, TensorRepresentation> expected = new LinkedHashMap<>();
        expected.put(
                "##SEQUENCE##.int_feature",
                tr("ragged_tensor { feature_path { step: '##SEQUENCE##' step: 'int_feature' } }"));
        expected.put(
                "##SEQUENCE##.string_feature",
                tr(
                        "ragged_tensor { feature_path { step: '##SEQUENCE##' step:"
                                + " 'string_feature' } }"));
        assertEquals(expected, TensorRepresentations.infer(schema(STRUCT)));
    }

    @Test
    void structWithNestedStructOrSparseFeatureIsRejected() {
        SchemaRejectedException nested =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                TensorRepresentations.infer(
                                        schema(
                                                "feature { name: 's' type: STRUCT struct_domain {"
                                                        + " feature { name: 'inner' type: STRUCT"
                                                        + " } } }")));
        assertEquals(
                "Got STRUCT feature inner in struct domain of s. STRUCT features with multiple"
                        + " levels of nestedness are not supported.",
                nested.getMessage());
        SchemaRejectedException sparse =
                assertThrows(
                        SchemaRejectedException.class,
                        () ->
                                TensorRepresentations.infer(
                                        schema(
                                                "feature { name: 's' type: STRUCT struct_domain {"
                                                        + " sparse_feature { name: 'sp' } } }")));
        assertEquals(
                "Got sparse features in struct domain of s. Struct features with sparse domains"
                        + " are not supported.",
                sparse.getMessage());
    }

    @Test
    void s36ExplicitRepresentationConsumesItsValueColumn() throws Exception {
        Schema s =
                schema(
                        "feature { name: 'x' type: INT shape { dim { size: 1 } } presence {"
                                + " min_fraction: 1 } }"
                                + "feature { name: 'value' type: FLOAT }"
                                + group("y", "ragged_tensor { feature_path { step: 'value' } }"));
        Map<String, TensorRepresentation> expected = new LinkedHashMap<>();
        expected.put("y", tr("ragged_tensor { feature_path { step: 'value' } }"));
        expected.put("x", tr("dense_tensor { column_name: 'x' shape { dim { size: 1 } } }"));
        assertEquals(expected, TensorRepresentations.inferMixed(s));
    }

    @Test
    void s37ExplicitRepresentationWinsOverFeatureOfTheSameName() throws Exception {
        Schema s =
                schema(
                        "feature { name: 'x' type: INT shape { dim { size: 1 } } presence {"
                                + " min_fraction: 1 } }"
                                + "feature { name: 'y' type: INT shape { dim { size: 1 } } presence"
                                + " { min_fraction: 1 } }"
                                + "feature { name: 'value' type: FLOAT }"
                                + group("y", "ragged_tensor { feature_path { step: 'value' } }"));
        Map<String, TensorRepresentation> got = TensorRepresentations.inferMixed(s);
        assertEquals(2, got.size());
        assertEquals(tr("ragged_tensor { feature_path { step: 'value' } }"), got.get("y"));
        assertEquals(
                tr("dense_tensor { column_name: 'x' shape { dim { size: 1 } } }"), got.get("x"));
    }

    @Test
    void s38MixedStructSchemaKeepsInferredStructChildren() throws Exception {
        Schema s =
                schema(
                        "feature { name: 'int_feature' type: INT }"
                                + STRUCT
                                + group(
                                        "int_feature",
                                        "ragged_tensor { feature_path { step: 'int_feature' }"
                                                + " }"));
        Map<String, TensorRepresentation> got = TensorRepresentations.inferMixed(s);
        assertEquals(
                Map.of(
                        "int_feature",
                        tr("ragged_tensor { feature_path { step: 'int_feature' } }"),
                        "##SEQUENCE##.int_feature",
                        tr(
                                "ragged_tensor { feature_path { step: '##SEQUENCE##' step:"
                                        + " 'int_feature' } }"),
                        "##SEQUENCE##.string_feature",
                        tr(
                                "ragged_tensor { feature_path { step: '##SEQUENCE##' step:"
                                        + " 'string_feature' } }")),
                got);
    }

    @Test
    void rowLengthPartitionColumnIsConsumed() throws Exception {
        Schema s =
                schema(
                        "feature { name: 'value' type: FLOAT } feature { name: 'rl' type: INT }"
                                + group(
                                        "r",
                                        "ragged_tensor { feature_path { step: 'value' } partition"
                                                + " { row_length: 'rl' } }"));
        assertEquals(List.of("r"), List.copyOf(TensorRepresentations.inferMixed(s).keySet()));
    }

    @Test
    void s46ProjectAndValidateMessages() throws Exception {
        Schema sparseWithoutIndex =
                schema(
                        "feature { name: 'value_key' type: INT }"
                                + group(
                                        "x",
                                        "sparse_tensor { value_column_name: 'value_key'"
                                                + " index_column_names: 'index_key' }"));
        assertEquals(
                "TensorRepresentations source columns {index_key} are not present in the schema.",
                assertThrows(
                                SchemaRejectedException.class,
                                () ->
                                        TensorRepresentationChecks.project(
                                                sparseWithoutIndex, List.of("x")))
                        .reason());
        Schema intFeature =
                schema(
                        "feature { name: 'int_feature' type: INT } feature { name: 'f' type:"
                                + " FLOAT }"
                                + group("f", "varlen_sparse_tensor { column_name: 'f' }"));
        assertEquals(
                "Unable to project {'int_feature'} because they were not in the original or"
                        + " inferred TensorRepresentations.",
                assertThrows(
                                SchemaRejectedException.class,
                                () ->
                                        TensorRepresentationChecks.project(
                                                intFeature, List.of("int_feature")))
                        .reason());
        assertEquals(
                "TensorRepresentations are not found in the schema. Did you specify correct group"
                        + " name?",
                assertThrows(
                                SchemaRejectedException.class,
                                () ->
                                        TensorRepresentationChecks.validate(
                                                schema("feature { name: 'a' type: INT }")))
                        .reason());
        assertEquals(
                "Features present in the schema but not referred in any TensorRepresentation:"
                        + " {int_feature}",
                assertThrows(
                                SchemaRejectedException.class,
                                () -> TensorRepresentationChecks.validate(intFeature))
                        .reason());
        assertEquals(
                "Features referred in TensorRepresentations but not found in the schema:"
                        + " {index_key}",
                assertThrows(
                                SchemaRejectedException.class,
                                () -> TensorRepresentationChecks.validate(sparseWithoutIndex))
                        .reason());
    }

    @Test
    void projectKeepsNamedTensorsAndTheirColumns() throws Exception {
        Schema s =
                schema(
                        "feature { name: 'a' type: INT } feature { name: 'b' type: FLOAT }"
                                + " feature { name: 'c' type: BYTES }");
        Schema projected = TensorRepresentationChecks.project(s, List.of("b"));
        assertEquals(
                schema(
                        "feature { name: 'b' type: FLOAT }"
                                + group("b", "varlen_sparse_tensor { column_name: 'b' }")),
                projected);
        TensorRepresentationChecks.validate(projected);
    }

    static Schema schema(String text) throws TextFormat.ParseException {
        return SchemaLoader.parseText(text);
    }

    static String group(String key, String tr) {
        return " tensor_representation_group { key: '' value { tensor_representation { key: '"
                + key
                + "' value { "
                + tr
                + " } } } }";
    }

    static TensorRepresentation tr(String text) throws TextFormat.ParseException {
        TensorRepresentation.Builder b = TensorRepresentation.newBuilder();
        TextFormat.merge(text, b);
        return b.build();
    }

    private static Map<String, TensorRepresentation> trs(String name, String text)
            throws TextFormat.ParseException {
        return Map.of(name, tr(text));
    }
}
