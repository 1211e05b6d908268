package io.tfstream.spec.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * The diff's verdict against the parser (whose acceptance matches {@code tf.io.parse_example}):
 * random records over the features the old spec reads; a compatible change must let the new spec
 * accept every record the old one accepts, a breaking one must refuse at least one of them.
 */
class SpecDiffAgreesWithParserTest {
    private static final int RECORDS = 20_000;
    private static final int[] COUNTS = {0, 1, 1, 2, 2, 3, 4, 6};

    static Stream<DiffCase> cases() {
        return DiffCase.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void verdictMatchesTheParser(DiffCase c) {
        SpecDiff diff = SpecDiff.of(c.oldSpec(), c.newSpec());
        Map<String, DType> keys = new LinkedHashMap<>();
        for (Map.Entry<String, FeatureSpec> e : c.oldSpec().features().entrySet()) {
            keys.putAll(FeatureRules.rawKeys(e.getKey(), e.getValue()));
        }
        SplittableRandom rnd = new SplittableRandom(c.name().hashCode());
        int acceptedByOld = 0;
        int refusedByNew = 0;
        for (int i = 0; i < RECORDS; i++) {
            byte[] record = randomRecord(rnd, keys);
            if (!accepts(c.oldSpec(), record)) {
                continue;
            }
            acceptedByOld++;
            if (!accepts(c.newSpec(), record)) {
                refusedByNew++;
            }
        }
        assertTrue(acceptedByOld >= 10, "too few records the old spec accepts: " + acceptedByOld);
        if (diff.compatible()) {
            assertEquals(0, refusedByNew, "compatible, yet the new spec refuses records");
        } else {
            assertTrue(refusedByNew > 0, "breaking, yet the new spec accepts every record");
        }
    }

    private static boolean accepts(FeatureSpecs spec, byte[] record) {
        try {
            ExampleBatchParser.create(spec).parse(SerializedRecords.of(List.of(record)));
            return true;
        } catch (ExampleParseException e) {
            return false;
        }
    }

    private static byte[] randomRecord(SplittableRandom rnd, Map<String, DType> keys) {
        Features.Builder features = Features.newBuilder();
        for (Map.Entry<String, DType> k : keys.entrySet()) {
            if (rnd.nextInt(5) == 0) {
                continue;
            }
            int n = COUNTS[rnd.nextInt(COUNTS.length)];
            Feature.Builder f = Feature.newBuilder();
            switch (k.getValue()) {
                case INT64:
                    Int64List.Builder ints = Int64List.newBuilder();
                    for (int j = 0; j < n; j++) {
                        ints.addValue(rnd.nextInt(3));
                    }
                    f.setInt64List(ints);
                    break;
                case FLOAT32:
                    FloatList.Builder floats = FloatList.newBuilder();
                    for (int j = 0; j < n; j++) {
                        floats.addValue(rnd.nextFloat());
                    }
                    f.setFloatList(floats);
                    break;
                default:
                    BytesList.Builder bytes = BytesList.newBuilder();
                    for (int j = 0; j < n; j++) {
                        bytes.addValue(ByteString.copyFromUtf8("v" + j));
                    }
                    f.setBytesList(bytes);
            }
            features.putFeature(k.getKey(), f.build());
        }
        return Example.newBuilder().setFeatures(features).build().toByteArray();
    }
}
