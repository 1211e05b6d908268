package io.tfstream.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.testkit.ProtoFeatures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;

/**
 * {@link TensorBatchSplitter}: parts fit the limit, cover the rows in order, and each is exactly
 * the parse of its own rows (a padded FixedLenSequence column is padded to the part's longest row,
 * not the batch's); records too big alone are left out and reported.
 */
class TensorBatchSplitterTest {
    private static final FeatureSpecs SPEC =
            FeatureSpecs.of(
                    Map.<String, FeatureSpec>of(
                            "seq",
                            new FixedLenSequenceFeature(
                                    List.of(), DType.INT64, true, Optional.empty()),
                            "text",
                            new VarLenFeature(DType.STRING)));

    private static byte[] example(Random rnd, int seqLength, int textBytes) {
        long[] seq = new long[seqLength];
        for (int i = 0; i < seqLength; i++) {
            seq[i] = rnd.nextLong();
        }
        char[] text = new char[textBytes];
        Arrays.fill(text, (char) ('a' + rnd.nextInt(26)));
        return Example.newBuilder()
                .setFeatures(
                        Features.newBuilder()
                                .putFeature("seq", ProtoFeatures.int64s(seq))
                                .putFeature("text", ProtoFeatures.strings(new String(text))))
                .build()
                .toByteArray();
    }

    /** Tags each message with the batch indexes of its rows. */
    private static TensorBatch.Builder tag(TensorBatch.Builder b, int[] records, int count) {
        return b.setBatchId(
                Arrays.stream(records, 0, count)
                        .mapToObj(Integer::toString)
                        .collect(Collectors.joining(",")));
    }

    private static int[] rowsOf(TensorBatch m) {
        return m.getBatchId().isEmpty()
                ? new int[0]
                : Arrays.stream(m.getBatchId().split(",")).mapToInt(Integer::parseInt).toArray();
    }

    private static LenientBatchParser parser() {
        return LenientBatchParser.create(SPEC, ParseLimits.none());
    }

    private static TensorBatchSplitter.Result split(
            List<byte[]> records, int maxBytes, LenientBatchParser parser) {
        RecordBatch batch = RecordBatch.of(records);
        ParsedRows whole =
                parser.parse(
                        batch,
                        e -> {
                            throw new AssertionError(e);
                        });
        int[] all = new int[records.size()];
        Arrays.setAll(all, i -> i);
        return new TensorBatchSplitter(parser, maxBytes)
                .split(batch, whole, all, all.length, TensorBatchSplitterTest::tag);
    }

    @Test
    void aBatchThatFitsIsOneMessageFromTheOneParse() {
        Random rnd = new Random(1);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            records.add(example(rnd, rnd.nextInt(20), rnd.nextInt(100)));
        }
        int whole = split(records, Integer.MAX_VALUE, parser()).messages().get(0).serializedSize();
        TensorBatchSplitter.Result exact = split(records, whole, parser());
        assertEquals(1, exact.messages().size());
        assertEquals(0, exact.messages().get(0).meta().getParts());
        assertEquals(whole, exact.messages().get(0).serializedSize());
        // One byte less and it is split.
        TensorBatchSplitter.Result over = split(records, whole - 1, parser());
        assertTrue(over.messages().size() >= 2, over.messages().size() + " parts");
    }

    @Test
    void partsFitCoverTheRowsInOrderAndEqualTheParseOfTheirRows() throws Exception {
        Random rnd = new Random(7);
        for (int round = 0; round < 40; round++) {
            List<byte[]> records = new ArrayList<>();
            int n = 1 + rnd.nextInt(200);
            for (int i = 0; i < n; i++) {
                // A few long sequences: padding makes the whole batch much bigger than its parts.
                int len = rnd.nextInt(10) == 0 ? 100 + rnd.nextInt(300) : rnd.nextInt(8);
                records.add(example(rnd, len, rnd.nextInt(300)));
            }
            int max = 2_000 + rnd.nextInt(20_000);
            TensorBatchSplitter.Result r = split(records, max, parser());
            List<Integer> covered = new ArrayList<>();
            int parts = r.messages().size();
            for (int p = 0; p < parts; p++) {
                TensorBatch m = r.messages().get(p).toMessage();
                assertTrue(m.getSerializedSize() <= max, m.getSerializedSize() + " > " + max);
                assertEquals(parts == 1 ? 0 : p, m.getPart());
                assertEquals(parts == 1 ? 0 : parts, m.getParts());
                int[] rows = rowsOf(m);
                List<byte[]> own = new ArrayList<>();
                for (int i : rows) {
                    covered.add(i);
                    own.add(records.get(i));
                }
                // Independently: TensorFlow semantics over exactly these rows.
                assertEquals(
                        ExampleBatchParser.create(SPEC).parse(SerializedRecords.of(own)).features(),
                        TensorBatchCodec.decode(m, ""),
                        "round " + round + " part " + p);
            }
            for (int i : r.tooLarge()) {
                covered.add(i);
            }
            covered.sort(null);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                expected.add(i);
            }
            assertEquals(expected, covered, "every row in one part or left out, round " + round);
            // Rows are in batch order across parts.
            int last = -1;
            for (EncodedTensorBatch e : r.messages()) {
                for (int i : rowsOf(e.toMessage())) {
                    assertTrue(i > last, "row order");
                    last = i;
                }
            }
            for (int i = 0; i < r.tooLarge().length; i++) {
                assertTrue(r.tooLargeBytes()[i] > max);
            }
        }
    }

    @Test
    void aRecordTooBigForAnyMessageIsLeftOutAndTheRestStillGoes() {
        Random rnd = new Random(3);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            records.add(example(rnd, 3, i == 17 ? 50_000 : 40));
        }
        TensorBatchSplitter.Result r = split(records, 10_000, parser());
        assertArrayEquals(new int[] {17}, r.tooLarge());
        assertTrue(r.tooLargeBytes()[0] > 50_000);
        int rows = 0;
        for (EncodedTensorBatch m : r.messages()) {
            rows += (int) m.rows();
            assertTrue(m.serializedSize() <= 10_000);
        }
        assertEquals(29, rows);

        TensorBatchSplitter.Result alone = split(List.of(records.get(17)), 10_000, parser());
        assertEquals(List.of(), alone.messages());
        assertArrayEquals(new int[] {0}, alone.tooLarge());
    }
}
