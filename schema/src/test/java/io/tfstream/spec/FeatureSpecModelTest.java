package io.tfstream.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Construction-time validation and value semantics of the feature-spec model. */
class FeatureSpecModelTest {

    @Test
    void fixedLenDefaultMustFillTheShape() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                FixedLenFeature.withDefault(
                                        List.of(1L, 2L, 1L),
                                        DType.FLOAT32,
                                        DefaultValue.ofFloat32(3f)));
        assertEquals(
                "Cannot reshape a tensor with 1 elements to shape [1,2,1] (2 elements)",
                e.getMessage());
        FixedLenFeature.withDefault(
                List.of(1L, 2L, 1L), DType.FLOAT32, DefaultValue.ofFloat32(3f, -3f));
        FixedLenFeature.withDefault(List.of(), DType.INT64, DefaultValue.ofInt64(7));
    }

    @Test
    void fixedLenRejectsUnknownDimsAndWrongDefaultType() {
        assertEquals(
                "All dimensions of shape for FixedLenFeature need to be known but received [2,"
                        + " -1]",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> FixedLenFeature.required(List.of(2L, -1L), DType.INT64))
                        .getMessage());
        assertEquals(
                "default_value of dtype int64 does not match FixedLenFeature dtype string",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        FixedLenFeature.withDefault(
                                                List.of(), DType.STRING, DefaultValue.ofInt64(1)))
                        .getMessage());
    }

    @Test
    void fixedLenSequenceDefaultIsOnePaddingValue() {
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new FixedLenSequenceFeature(
                                List.of(2L),
                                DType.INT64,
                                true,
                                Optional.of(DefaultValue.ofInt64(1, 2))));
        assertEquals(
                DefaultValue.ofBytes(new byte[0]),
                new FixedLenSequenceFeature(List.of(), DType.STRING, true, Optional.empty())
                        .paddingValue());
    }

    @Test
    void sparseSizeMatchesIndexKeysAndIsMinusOneOrMore() {
        assertEquals(
                "SparseFeature has 1 index keys but size has 2 dimensions [1, 2]",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        new SparseFeature(
                                                List.of("i"),
                                                "v",
                                                DType.INT64,
                                                List.of(1L, 2L),
                                                false))
                        .getMessage());
        assertEquals(
                "SparseFeature size [-2] has dimension 0 = -2; sizes must be >= 0, or -1 for"
                        + " unknown",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        new SparseFeature(
                                                List.of("i"),
                                                "v",
                                                DType.INT64,
                                                List.of(-2L),
                                                false))
                        .getMessage());
        new SparseFeature(List.of("i"), "v", DType.INT64, List.of(-1L), false);
    }

    @Test
    void raggedValidation() {
        assertEquals(
                "value_key may not be empty",
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        new RaggedFeature(
                                                DType.INT64, "", List.of(), RowSplitsDType.INT32))
                        .getMessage());
        assertEquals(
                "uniform_row_length must be non-negative; got -1",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new Partition.UniformRowLength(-1))
                        .getMessage());
        assertEquals(
                "dtypes must be int64, float32, or string (bytes); got 'int8'",
                assertThrows(IllegalArgumentException.class, () -> DType.fromName("int8"))
                        .getMessage());
    }

    @Test
    void specsAreImmutable() {
        List<Partition> parts = new ArrayList<>(List.of(new Partition.RowLengths("r")));
        RaggedFeature r = new RaggedFeature(DType.INT64, "v", parts, RowSplitsDType.INT64);
        parts.clear();
        assertEquals(1, r.partitions().size());
        assertThrows(UnsupportedOperationException.class, () -> r.partitions().clear());
        long[] values = {1, 2};
        DefaultValue d = DefaultValue.ofInt64(values);
        values[0] = 9;
        assertEquals(1, d.int64(0));
        FeatureSpecs specs = FeatureSpecs.of(Map.of("a", new VarLenFeature(DType.INT64)));
        assertThrows(
                UnsupportedOperationException.class,
                () -> specs.features().put("b", new VarLenFeature(DType.INT64)));
    }

    @Test
    void floatDefaultsCompareByBits() {
        assertNotEquals(DefaultValue.ofFloat32(0f), DefaultValue.ofFloat32(-0f));
        assertEquals(
                DefaultValue.ofFloat32(Float.NaN),
                DefaultValue.ofFloat32(Float.intBitsToFloat(0x7fc00001)));
        assertEquals(
                DefaultValue.ofFloat32(Float.NaN).hashCode(),
                DefaultValue.ofFloat32(Float.intBitsToFloat(0x7fc00001)).hashCode());
    }

    @Test
    void sequenceSpecsAllowOnlyTheirKinds() {
        FeatureSpecs seq =
                FeatureSpecs.of(
                        Map.of(
                                "s",
                                new FixedLenSequenceFeature(
                                        List.of(), DType.INT64, true, Optional.empty())));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SequenceFeatureSpecs(seq, FeatureSpecs.empty()));
        FeatureSpecs fixed =
                FeatureSpecs.of(Map.of("f", FixedLenFeature.required(List.of(), DType.INT64)));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SequenceFeatureSpecs(FeatureSpecs.empty(), fixed));
        ParseSpec ok = new SequenceFeatureSpecs(fixed, seq);
        assertEquals(true, ok.isSequence());
        assertEquals(false, fixed.isSequence());
    }

    @Test
    void namesAreInCodePointOrder() {
        FeatureSpecs specs =
                FeatureSpecs.of(
                        Map.of(
                                "\uD83D\uDE00", new VarLenFeature(DType.INT64),
                                "\uFFFD", new VarLenFeature(DType.INT64),
                                "a", new VarLenFeature(DType.INT64)));
        assertEquals(
                List.of("a", "\uFFFD", "\uD83D\uDE00"), List.copyOf(specs.features().keySet()));
    }
}
