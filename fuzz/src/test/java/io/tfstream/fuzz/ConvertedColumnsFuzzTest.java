package io.tfstream.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.InputFormat;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.testing.ConvertedParseOracle;
import io.tfstream.testing.ExampleAvro;
import java.util.List;

/**
 * Fuzzes the JSON and Avro converters and their decoding straight into the parser's columns: a
 * batch of fuzzed JSON or Avro records under one of {@link FuzzSpecs#EXAMPLE} (low six bits of the
 * configuration byte), Examples written during the parse or not (bit 6), {@link FuzzSpecs#DEFAULT}
 * or tight limits (bit 7).
 *
 * <p>Oracle: neither path throws anything but a conversion or parse rejection; decoding into the
 * columns gives exactly what converting each record to its Example and parsing those gives ({@link
 * ConvertedParseOracle}: rejections with their kinds and messages, rows, tensors, row states,
 * Examples); nothing is allocated beyond what the input size justifies.
 */
class ConvertedColumnsFuzzTest {
    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void json(byte[] data) throws Exception {
        run(InputFormat.JSON, data);
    }

    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void avro(byte[] data) throws Exception {
        run(InputFormat.AVRO, data);
    }

    private static void run(InputFormat format, byte[] data) throws Exception {
        int config = FuzzRecords.config(data);
        FeatureSpecs spec = FuzzSpecs.EXAMPLE.get((config & 0x3f) % FuzzSpecs.EXAMPLE.size());
        boolean keep = (config & 0x40) != 0;
        ParseLimits limits = (config & 0x80) != 0 ? FuzzSpecs.TIGHT : FuzzSpecs.DEFAULT;
        List<byte[]> records = FuzzRecords.records(data);
        ConvertFeatures features = ConvertFeatures.of(spec);
        String avsc = format == InputFormat.AVRO ? avroSchema(features) : null;
        AllocationBudget.check(
                data.length,
                () ->
                        new ConvertedParseOracle(
                                        format, spec, limits, keep, ConvertOptions.defaults(), avsc)
                                .compare(records));
    }

    /** The writer schema the seeds are written with: each feature a nullable array. */
    static String avroSchema(ConvertFeatures features) {
        return new ExampleAvro(features.asMap()).schema().toString();
    }
}
