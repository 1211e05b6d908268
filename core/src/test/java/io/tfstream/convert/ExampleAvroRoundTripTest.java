package io.tfstream.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.sample.SeedDataset;
import io.tfstream.spec.DType;
import io.tfstream.testing.ExampleAvro;
import io.tfstream.testing.WideProfileCorpus;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;

/** Seed-001 and wide-profile Examples written as Avro lists convert back to the same Examples. */
class ExampleAvroRoundTripTest {
    @Test
    void seedExamplesThroughAvroAreTheSameExamples() throws Exception {
        Map<String, DType> types = new TreeMap<>();
        types.put("feature0", DType.INT64);
        types.put("feature1", DType.INT64);
        types.put("feature2", DType.STRING);
        types.put("feature3", DType.FLOAT32);
        check(types, SeedDataset.records(500, 1));
    }

    @Test
    void wideExamplesThroughAvroAreTheSameExamples() throws Exception {
        check(
                ConvertFeatures.of(WideProfileCorpus.spec()).asMap(),
                WideProfileCorpus.records(200, 2));
    }

    private static void check(Map<String, DType> types, java.util.List<byte[]> examples)
            throws Exception {
        ExampleAvro avro = new ExampleAvro(types);
        AvroToExample c =
                new AvroToExample(
                        avro.schema(), ConvertFeatures.of(types), ConvertOptions.defaults());
        for (byte[] e : examples) {
            byte[] in = avro.of(e);
            assertEquals(Example.parseFrom(e), Example.parseFrom(c.convert(in, 0, in.length)));
        }
    }
}
