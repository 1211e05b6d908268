package io.tfstream.parse.example;

import static io.tfstream.testing.FeatureWire.entry;
import static io.tfstream.testing.FeatureWire.example;
import static io.tfstream.testing.FeatureWire.int64Feature;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.parse.SerializedRecords;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.SparseTensor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Found by {@code ExampleParserFuzzTest} (FUZZING.md finding 6): the scan loop read the kind byte
 * of a requested key's value before checking that the value has one. A {@code Feature{}} (an empty
 * value) of a key of six to eight bytes remembered at its position, as the last bytes of the
 * buffer, read one byte past its end ({@code ArrayIndexOutOfBoundsException}). An empty value is an
 * empty VarLen list, as in TensorFlow.
 */
class EmptyLastValueRegressionTest {
    @Test
    void emptyValueAtTheEndOfTheBufferAfterTheSameKeyIsAnEmptyList() throws Exception {
        FeatureSpecs spec = FeatureSpecs.of(Map.of("feature0", new VarLenFeature(DType.INT64)));
        ExampleBatchParser parser = ExampleBatchParser.create(spec);
        byte[] first = example(entry("feature0", int64Feature(5, 6)));
        byte[] empty = example(entry("feature0", new byte[0]));
        parser.parse(SerializedRecords.of(List.of(first))); // the key remembered at position 0
        SparseTensor v =
                (SparseTensor)
                        parser.parse(SerializedRecords.of(List.of(empty)))
                                .features()
                                .get("feature0");
        assertEquals(0, v.values().size());
        assertArrayEquals(new long[] {1, 0}, v.denseShape());
        SparseTensor both =
                (SparseTensor)
                        parser.parse(SerializedRecords.of(List.of(first, empty)))
                                .features()
                                .get("feature0");
        assertEquals(2, both.values().size());
        assertArrayEquals(new long[] {2, 2}, both.denseShape());
    }
}
