package io.tfstream.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.VarLenFeature;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/** The first int64 value per row of dense, sparse and ragged outputs. */
class Int64FeatureColumnTest {
    private static byte[] ex(long... ts) {
        Features.Builder f = Features.newBuilder();
        if (ts.length > 0) {
            Int64List.Builder l = Int64List.newBuilder();
            for (long t : ts) {
                l.addValue(t);
            }
            f.putFeature(
                    "d",
                    Feature.newBuilder()
                            .setInt64List(Int64List.newBuilder().addValue(ts[0]))
                            .build());
            f.putFeature("v", Feature.newBuilder().setInt64List(l).build());
            f.putFeature("r", Feature.newBuilder().setInt64List(l).build());
        }
        f.putFeature(
                "f", Feature.newBuilder().setFloatList(FloatList.newBuilder().addValue(1)).build());
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    @Test
    void firstValuePerRowAndMissingRows() throws Exception {
        FeatureSpecs spec =
                FeatureSpecs.of(
                        Map.<String, FeatureSpec>of(
                                "d",
                                FixedLenFeature.withDefault(
                                        List.of(), DType.INT64, DefaultValue.ofInt64(-7)),
                                "v",
                                new VarLenFeature(DType.INT64),
                                "r",
                                new RaggedFeature(
                                        DType.INT64, "r", List.of(), RowSplitsDType.INT64),
                                "f",
                                new VarLenFeature(DType.FLOAT32)));
        ParsedBatch b =
                ExampleBatchParser.create(spec)
                        .parse(RecordBatch.of(ex(5), ex(), ex(9, 10), ex(11)));
        Int64FeatureColumn d = Int64FeatureColumn.of(b, "d");
        assertEquals(
                List.of(5L, -7L, 9L, 11L), List.of(d.value(0), d.value(1), d.value(2), d.value(3)));
        for (String name : List.of("v", "r")) {
            Int64FeatureColumn c = Int64FeatureColumn.of(b, name);
            assertTrue(c.present(0), name);
            assertFalse(c.present(1), name);
            assertEquals(5, c.value(0));
            assertEquals(9, c.value(2));
            assertEquals(11, c.value(3));
        }
        assertEquals(
                "feature 'f' is float, not int64",
                assertThrows(IllegalArgumentException.class, () -> Int64FeatureColumn.of(b, "f"))
                        .getMessage());
        assertEquals(
                "the parsed batch has no feature 'z'",
                assertThrows(IllegalArgumentException.class, () -> Int64FeatureColumn.of(b, "z"))
                        .getMessage());
    }
}
