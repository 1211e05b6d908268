package io.tfstream.parse.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.tensor.json.BatchJsonWriter;
import io.tfstream.tensor.json.StringEncoding;
import io.tfstream.testing.WideProfileCorpus;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * The parser's two paths give the same tensors: a record whose requested keys each occur once is
 * decoded in one pass, and the same record preceded by a decoy Example (concatenated Examples
 * merge; every requested key then repeats, the later entry winning) takes the kernel's last-wins
 * replay. Decoys hold other values, other dtypes and {@code Feature{}} entries, which the replay
 * must skip exactly as TensorFlow does. Batches mix both paths record by record.
 */
class OnePassReplayEquivalenceTest {
    private static final FeatureSpecs SPEC = WideProfileCorpus.spec();

    @Test
    void recordsWithRepeatedKeysParseLikeTheRecordsAlone() throws Exception {
        Random rnd = new Random(17);
        ExampleBatchParser parser = ExampleBatchParser.create(SPEC);
        for (int round = 0; round < 20; round++) {
            List<byte[]> plain = WideProfileCorpus.records(64, round);
            List<byte[]> merged = new ArrayList<>();
            int replayed = 0;
            for (byte[] r : plain) {
                if (rnd.nextBoolean()) {
                    merged.add(concat(decoy(rnd), r));
                    replayed++;
                } else {
                    merged.add(r);
                }
            }
            String expected = json(parser.parse(SerializedRecords.of(plain)));
            assertEquals(expected, json(parser.parse(SerializedRecords.of(merged))));
            List<ExampleParseException> rejected = new ArrayList<>();
            ParsedBatch lenient = parser.parseLenient(SerializedRecords.of(merged), rejected::add);
            assertEquals(List.of(), rejected);
            assertEquals(expected, json(lenient));
            assertEquals(true, replayed > 10);
        }
    }

    /** An Example with every requested key: random values, another dtype, or no kind. */
    private static byte[] decoy(Random rnd) {
        Features.Builder f = Features.newBuilder();
        for (String key : SPEC.features().keySet()) {
            Feature.Builder v = Feature.newBuilder();
            switch (rnd.nextInt(4)) {
                case 0:
                    v.setInt64List(Int64List.newBuilder().addValue(rnd.nextLong()).addValue(7));
                    break;
                case 1:
                    v.setFloatList(FloatList.newBuilder().addValue(rnd.nextFloat()));
                    break;
                case 2:
                    v.setBytesList(
                            BytesList.newBuilder()
                                    .addValue(ByteString.copyFromUtf8("decoy" + rnd.nextInt())));
                    break;
                default:
                    break; // Feature{}: no kind
            }
            f.putFeature(key, v.build());
        }
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String json(ParsedBatch b) throws Exception {
        StringWriter s = new StringWriter();
        try (BatchJsonWriter w = new BatchJsonWriter(s, StringEncoding.BASE64)) {
            w.writeBatch(0, b.features());
        }
        return s.toString();
    }
}
