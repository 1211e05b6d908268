package io.tfstream.spec.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of change in both directions: the kind reported and whether it breaks. Whether the
 * verdict is right is checked against the parser by {@link SpecDiffAgreesWithParserTest} over the
 * same cases.
 */
class SpecDiffTest {

    static Stream<DiffCase> cases() {
        return DiffCase.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsTheChangeAndItsVerdict(DiffCase c) {
        SpecDiff diff = SpecDiff.of(c.oldSpec(), c.newSpec());
        assertEquals(1, diff.changes().size(), diff::toString);
        SpecChange change = diff.changes().get(0);
        assertEquals(c.kind(), change.change(), () -> change.toString());
        assertEquals(c.breaking(), change.breaking(), () -> change.toString());
        assertEquals(!c.breaking(), diff.compatible());
        assertEquals("f", change.feature());
        assertFalse(change.reason().isBlank());
    }

    @Test
    void equalSpecsHaveNoChanges() {
        FeatureSpecs s = DiffCase.one(FixedLenFeature.required(List.of(2L), DType.INT64));
        SpecDiff diff =
                SpecDiff.of(s, DiffCase.one(FixedLenFeature.required(List.of(2L), DType.INT64)));
        assertTrue(diff.changes().isEmpty());
        assertTrue(diff.compatible());
    }

    @Test
    void exampleToSequenceExampleBreaksEverything() {
        ParseSpec example = DiffCase.one(new VarLenFeature(DType.INT64));
        ParseSpec sequence =
                new SequenceFeatureSpecs(
                        FeatureSpecs.empty(), DiffCase.one(new VarLenFeature(DType.INT64)));
        for (SpecDiff diff :
                List.of(SpecDiff.of(example, sequence), SpecDiff.of(sequence, example))) {
            assertEquals(1, diff.changes().size());
            SpecChange c = diff.changes().get(0);
            assertEquals(SpecChange.Kind.KIND, c.change());
            assertNull(c.feature());
            assertTrue(c.breaking());
        }
    }

    @Test
    void sequenceSectionsAreComparedApart() {
        FixedLenSequenceFeature optional =
                new FixedLenSequenceFeature(List.of(), DType.FLOAT32, true, Optional.empty());
        FixedLenSequenceFeature required =
                new FixedLenSequenceFeature(List.of(), DType.FLOAT32, false, Optional.empty());
        ParseSpec old =
                new SequenceFeatureSpecs(
                        DiffCase.one(new VarLenFeature(DType.INT64)), DiffCase.one(optional));
        ParseSpec neu =
                new SequenceFeatureSpecs(
                        DiffCase.one(new VarLenFeature(DType.STRING)), DiffCase.one(required));
        SpecDiff diff = SpecDiff.of(old, neu);
        assertEquals(2, diff.changes().size(), diff::toString);
        SpecChange context = diff.changes().get(0);
        assertEquals("context", context.section());
        assertEquals(SpecChange.Kind.DTYPE, context.change());
        assertTrue(context.breaking());
        SpecChange list = diff.changes().get(1);
        assertEquals("feature_lists/f", list.qualifiedFeature());
        assertEquals(SpecChange.Kind.REQUIRED, list.change());
        assertTrue(list.breaking());
        SpecChange back = SpecDiff.of(neu, old).changes().get(1);
        assertEquals(SpecChange.Kind.REQUIRED, back.change());
        assertFalse(back.breaking());
    }

    @Test
    void severalChangesOfOneFeatureAreEachReported() {
        FeatureSpec old =
                FixedLenFeature.withDefault(List.of(2L), DType.INT64, DefaultValue.ofInt64(1, 2));
        FeatureSpec neu = FixedLenFeature.required(List.of(3L), DType.FLOAT32);
        SpecDiff diff = SpecDiff.of(DiffCase.one(old), DiffCase.one(neu));
        assertEquals(
                List.of(SpecChange.Kind.DTYPE, SpecChange.Kind.SHAPE, SpecChange.Kind.REQUIRED),
                diff.changes().stream().map(SpecChange::change).toList());
        assertTrue(diff.changes().get(2).reason().contains("[1,2]"), diff::toString);
        assertEquals(3, diff.breakingChanges().size());
    }

    @Test
    void namesAreReportedInCodePointOrder() {
        FeatureSpecs old = FeatureSpecs.of(Map.of("b", new VarLenFeature(DType.INT64)));
        FeatureSpecs neu =
                FeatureSpecs.of(
                        Map.of(
                                "a", new VarLenFeature(DType.INT64),
                                "c", new VarLenFeature(DType.INT64)));
        assertEquals(
                List.of("a", "b", "c"),
                SpecDiff.of(old, neu).changes().stream().map(SpecChange::feature).toList());
    }
}
