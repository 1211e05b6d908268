package io.tfstream.spec.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TftViewTest {
    @Test
    void featureListsWinOverContextFeaturesOfTheSameName() {
        RaggedFeature seq = new RaggedFeature(DType.STRING, "a", List.of(), RowSplitsDType.INT64);
        SequenceFeatureSpecs s =
                new SequenceFeatureSpecs(
                        FeatureSpecs.of(
                                Map.of(
                                        "a", new VarLenFeature(DType.INT64),
                                        "c", new VarLenFeature(DType.FLOAT32))),
                        FeatureSpecs.of(Map.of("a", seq)));
        assertEquals(
                FeatureSpecs.of(Map.of("a", seq, "c", new VarLenFeature(DType.FLOAT32))),
                TftView.featureSpec(s));
    }

    @Test
    void exampleSpecsAreTheirOwnView() {
        FeatureSpecs f = FeatureSpecs.of(Map.of("x", new VarLenFeature(DType.INT64)));
        assertSame(f, TftView.featureSpec(f));
    }
}
