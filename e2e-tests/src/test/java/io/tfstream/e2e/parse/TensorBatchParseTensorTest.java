package io.tfstream.e2e.parse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.e2e.sequence.TfSequenceParseOracle;
import io.tfstream.e2e.sequence.TfTensors;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.RecordBatch;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.payload.TensorBatchSplitter;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testing.WireEdgeCaseGenerator;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.framework.DataType;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.io.ParseTensor;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;

/**
 * The {@code TensorBatch} payload read with TensorFlow alone: every tensor of a payload, given to
 * TensorFlow's {@code ParseTensor} kernel ({@code tf.io.parse_tensor}) as the serialized {@code
 * TensorProto}, comes back with the dtype, shape and values TensorFlow's own {@code ParseExampleV2}
 * gives for the same records — dense features as {@code <name>}, sparse ones as {@code
 * <name>/indices}, {@code /values}, {@code /dense_shape}, ragged ones as {@code <name>/values} and
 * {@code <name>/row_splits} (docs/streaming-job.md#tensor-payloads). SequenceExample payloads
 * likewise against {@code ParseSequenceExampleV2}: context features under {@code context/}, feature
 * lists under {@code feature_list/}, lengths as {@code feature_list_lengths/<name>}. Batches are
 * cut by size as the job cuts them, so split parts are checked too.
 */
class TensorBatchParseTensorTest {
    private int tensorsChecked;
    private int contextTensors;
    private int featureListTensors;
    private int lengthTensors;
    private int splitParts;

    @Test
    void payloadsOfTheSeedWideAndEdgeCaseCorporaDecodeToTensorFlowsParse() {
        check(Seed001Corpus.spec(), Seed001Corpus.records(700, 5), 256, Integer.MAX_VALUE);
        check(WideProfileCorpus.spec(), WideProfileCorpus.records(300, 6), 100, 64 << 10);
        WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(11);
        for (int s = 0; s < 25; s++) {
            FeatureSpecs spec = gen.randomSpec();
            check(
                    spec,
                    gen.batch(spec, 1 + s * 7, 0),
                    1 + s * 7,
                    s % 2 == 0 ? Integer.MAX_VALUE : 2048);
        }
        assertTrue(tensorsChecked > 500, "tensors checked: " + tensorsChecked);
        assertTrue(splitParts > 10, "parts of split batches checked: " + splitParts);
    }

    @Test
    void sequenceExamplePayloadsDecodeToTensorFlowsParseSequenceExample() {
        // Every context and feature-list kind and dtype, then random specs.
        RandomSequenceExamples gen = new RandomSequenceExamples(20260301L);
        checkSequences(SequenceEdgeCases.SPEC, gen, 300, 50, Integer.MAX_VALUE);
        checkSequences(SequenceEdgeCases.SPEC, gen, 300, 64, 8 << 10);
        for (int s = 0; s < 12; s++) {
            checkSequences(
                    gen.spec(), gen, 40, 1 + s * 3, s % 2 == 0 ? Integer.MAX_VALUE : 4 << 10);
        }
        assertTrue(contextTensors > 100, "context tensors checked: " + contextTensors);
        assertTrue(featureListTensors > 100, "feature-list tensors: " + featureListTensors);
        assertTrue(lengthTensors > 20, "length tensors checked: " + lengthTensors);
        assertTrue(splitParts > 10, "parts of split batches checked: " + splitParts);
        System.out.printf(
                "sequence payloads: %d context, %d feature-list, %d length tensors, %d split"
                        + " parts%n",
                contextTensors, featureListTensors, lengthTensors, splitParts);
    }

    /**
     * {@code n} records of {@code gen} for {@code spec} that the parser accepts, parsed in batches
     * of {@code batchSize} and cut at {@code maxBytes}, against {@code parse_sequence_example}.
     */
    private void checkSequences(
            SequenceFeatureSpecs spec,
            RandomSequenceExamples gen,
            int n,
            int batchSize,
            int maxBytes) {
        LenientBatchParser parser = LenientBatchParser.create(spec, ParseLimits.none());
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] r = gen.record(spec);
            List<Object> rejected = new ArrayList<>();
            parser.parse(RecordBatch.of(List.of(r)), rejected::add);
            if (rejected.isEmpty()) {
                records.add(r);
            }
        }
        assertTrue(records.size() > n / 2, records.size() + " of " + n + " records valid");
        try (TfSequenceParseOracle oracle = new TfSequenceParseOracle(spec)) {
            check(
                    spec,
                    records,
                    batchSize,
                    maxBytes,
                    own -> {
                        TfSequenceParseOracle.Outcome o = oracle.parse(own, null);
                        assertNull(o.error());
                        Map<String, Object> expected = new TreeMap<>();
                        expected.putAll(tensors(TensorBatchCodec.CONTEXT, o.context()));
                        expected.putAll(tensors(TensorBatchCodec.FEATURE_LIST, o.featureLists()));
                        o.lengths()
                                .forEach(
                                        (name, t) ->
                                                expected.put(
                                                        TensorBatchCodec.FEATURE_LIST_LENGTHS
                                                                + name,
                                                        t));
                        return expected;
                    });
        }
    }

    private void check(FeatureSpecs spec, List<byte[]> records, int batchSize, int maxBytes) {
        try (TfParseOracle oracle = new TfParseOracle(spec)) {
            check(
                    spec,
                    records,
                    batchSize,
                    maxBytes,
                    own -> {
                        TfParseOracle.Outcome expected = oracle.parse(own);
                        assertNull(expected.error());
                        return tensors("", expected.features());
                    });
        }
    }

    /**
     * Parses {@code records} in batches of {@code batchSize}, payloads cut at {@code maxBytes};
     * each payload's tensors against {@code oracle}'s over the payload's own records.
     */
    private void check(
            ParseSpec spec,
            List<byte[]> records,
            int batchSize,
            int maxBytes,
            Function<List<byte[]>, Map<String, Object>> oracle) {
        LenientBatchParser parser = LenientBatchParser.create(spec, ParseLimits.none());
        TensorBatchSplitter splitter = new TensorBatchSplitter(parser, Math.max(maxBytes, 1024));
        try (Graph g = new Graph()) {
            Ops tf = Ops.create(g);
            Placeholder<TString> in =
                    tf.placeholder(TString.class, Placeholder.shape(Shape.scalar()));
            Map<DataType, ParseTensor<?>> parsers = new TreeMap<>();
            parsers.put(DataType.DT_INT64, tf.io.parseTensor(in, TInt64.class));
            parsers.put(DataType.DT_INT32, tf.io.parseTensor(in, TInt32.class));
            parsers.put(DataType.DT_FLOAT, tf.io.parseTensor(in, TFloat32.class));
            parsers.put(DataType.DT_STRING, tf.io.parseTensor(in, TString.class));
            try (Session session = new Session(g)) {
                for (int from = 0; from < records.size(); from += batchSize) {
                    List<byte[]> batch =
                            records.subList(from, Math.min(records.size(), from + batchSize));
                    RecordBatch rb = RecordBatch.of(batch);
                    ParsedRows rows =
                            parser.parse(
                                    rb,
                                    e -> {
                                        throw new AssertionError(e);
                                    });
                    int[] all = new int[batch.size()];
                    Arrays.setAll(all, i -> i);
                    TensorBatchSplitter.Result result =
                            splitter.split(
                                    rb,
                                    rows,
                                    all,
                                    all.length,
                                    (b, picked, count) ->
                                            b.setBatchId(
                                                    Arrays.toString(Arrays.copyOf(picked, count))));
                    assertEquals(0, result.tooLarge().length);
                    for (io.tfstream.payload.EncodedTensorBatch encoded : result.messages()) {
                        TensorBatch m = encoded.toMessage();
                        if (m.getParts() > 1) {
                            splitParts++;
                        }
                        int[] picked =
                                Arrays.stream(
                                                m.getBatchId()
                                                        .substring(1, m.getBatchId().length() - 1)
                                                        .split(", "))
                                        .mapToInt(Integer::parseInt)
                                        .toArray();
                        List<byte[]> own = Arrays.stream(picked).mapToObj(batch::get).toList();
                        compare(oracle.apply(own), m, session, in, parsers);
                    }
                }
            }
        }
    }

    /**
     * The payload tensors of {@code features} (names as in docs/streaming-job.md#tensor-payloads),
     * under {@code prefix}.
     */
    private static Map<String, Object> tensors(String prefix, Map<String, Tensor> features) {
        Map<String, Object> expected = new TreeMap<>();
        for (Map.Entry<String, Tensor> e : features.entrySet()) {
            String name = prefix + e.getKey();
            Tensor t = e.getValue();
            if (t instanceof DenseTensor d) {
                expected.put(name, d);
            } else if (t instanceof SparseTensor s) {
                long[] shape = s.denseShape();
                expected.put(
                        name + "/indices",
                        new DenseTensor(
                                new long[] {s.numValues(), shape.length},
                                io.tfstream.tensor.Column.ofInt64(
                                        s.indicesArray(), s.numValues() * shape.length)));
                expected.put(
                        name + "/values", new DenseTensor(new long[] {s.numValues()}, s.values()));
                expected.put(
                        name + "/dense_shape",
                        new DenseTensor(
                                new long[] {shape.length},
                                io.tfstream.tensor.Column.ofInt64(shape, shape.length)));
            } else {
                RaggedTensor r = (RaggedTensor) t;
                expected.put(name + "/values", new DenseTensor(r.valuesShape(), r.values()));
                for (int k = 0; k < r.rowSplits().size(); k++) {
                    long[] splits = r.rowSplits().get(k);
                    expected.put(
                            name + "/row_splits" + (k == 0 ? "" : "/" + k),
                            new Splits(splits, r.rowSplitsDtype()));
                }
            }
        }
        return expected;
    }

    private void compare(
            Map<String, Object> expected,
            TensorBatch m,
            Session session,
            Placeholder<TString> in,
            Map<DataType, ParseTensor<?>> parsers) {
        assertEquals(expected.keySet(), new java.util.TreeSet<>(m.getTensorsMap().keySet()));
        for (Map.Entry<String, Object> e : expected.entrySet()) {
            org.tensorflow.framework.TensorProto proto = m.getTensorsOrThrow(e.getKey());
            DataType dtype = proto.getDtype();
            try (TString bytes =
                            TString.tensorOfBytes(
                                    Shape.scalar(),
                                    DataBuffers.of(
                                            new byte[][] {proto.toByteArray()}, true, false));
                    Result r = session.runner().feed(in, bytes).fetch(parsers.get(dtype)).run()) {
                TType got = (TType) r.get(0);
                if (e.getValue() instanceof Splits s) {
                    assertEquals(
                            s.dtype() == RowSplitsDType.INT32
                                    ? DataType.DT_INT32
                                    : DataType.DT_INT64,
                            dtype,
                            e.getKey());
                    assertArrayEquals(new long[] {s.splits().length}, got.shape().asArray());
                    assertArrayEquals(s.splits(), TfTensors.longs(got), e.getKey());
                } else {
                    assertEquals(e.getValue(), TfTensors.dense(got), e.getKey());
                }
                tensorsChecked++;
                if (e.getKey().startsWith(TensorBatchCodec.CONTEXT)) {
                    contextTensors++;
                } else if (e.getKey().startsWith(TensorBatchCodec.FEATURE_LIST_LENGTHS)) {
                    lengthTensors++;
                } else if (e.getKey().startsWith(TensorBatchCodec.FEATURE_LIST)) {
                    featureListTensors++;
                }
            }
        }
    }

    private record Splits(long[] splits, RowSplitsDType dtype) {}
}
