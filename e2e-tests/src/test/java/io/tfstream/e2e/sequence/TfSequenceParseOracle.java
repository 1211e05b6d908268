package io.tfstream.e2e.sequence;

import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Output;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.io.ParseSequenceExample;
import org.tensorflow.types.TBool;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TNumber;
import org.tensorflow.types.family.TType;

/**
 * TensorFlow's own {@code ParseSequenceExampleV2} kernel (TF Java 1.1.0 = TF 2.18, graph mode, one
 * session per spec) with the outputs assembled as Python's {@code parse_sequence_example} and
 * {@code parse_single_sequence_example} return them, converted to this project's tensor types. The
 * single version feeds a scalar to the same V2 op, exactly as Python's {@code
 * _parse_single_sequence_example_raw} does (the V1 {@code ParseSingleSequenceExample} op is not
 * what Python calls). Ragged features without partitions only.
 */
public final class TfSequenceParseOracle implements AutoCloseable {
    /** TensorFlow's outputs, or its error text. */
    public record Outcome(
            Map<String, Tensor> context,
            Map<String, Tensor> featureLists,
            Map<String, DenseTensor> lengths,
            String error) {}

    private final Graph graph = new Graph();
    private final Session session;
    private final Placeholder<TString> serialized;
    private final Placeholder<TString> names;
    private final ParseSequenceExample op;
    private final List<String> ctxSparse = new ArrayList<>();
    private final List<String> ctxDense = new ArrayList<>();
    private final List<String> ctxRagged = new ArrayList<>();
    private final List<String> flSparse = new ArrayList<>();
    private final List<String> flDense = new ArrayList<>();
    private final List<String> flRagged = new ArrayList<>();
    private final Map<String, RowSplitsDType> splitTypes = new TreeMap<>();
    private final Map<String, String> ctxRaggedUsers = new TreeMap<>();
    private final Map<String, String> flRaggedUsers = new TreeMap<>();

    public TfSequenceParseOracle(SequenceFeatureSpecs specs) {
        Ops tf = Ops.create(graph);
        serialized = tf.placeholder(TString.class, Placeholder.shape(Shape.unknown()));
        names = tf.placeholder(TString.class, Placeholder.shape(Shape.unknown()));
        List<Class<? extends TType>> ctxSparseT = new ArrayList<>();
        List<Class<? extends TType>> ctxRaggedT = new ArrayList<>();
        List<Class<? extends TNumber>> ctxSplitT = new ArrayList<>();
        List<Class<? extends TType>> flDenseT = new ArrayList<>();
        List<Class<? extends TType>> flSparseT = new ArrayList<>();
        List<Class<? extends TType>> flRaggedT = new ArrayList<>();
        List<Class<? extends TNumber>> flSplitT = new ArrayList<>();
        List<Operand<?>> defaults = new ArrayList<>();
        List<Shape> ctxShapes = new ArrayList<>();
        List<Shape> flShapes = new ArrayList<>();
        List<Boolean> missingOk = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : specs.context().features().entrySet()) {
            String k = e.getKey();
            FeatureSpec s = e.getValue();
            if (s instanceof FixedLenFeature) {
                FixedLenFeature f = (FixedLenFeature) s;
                ctxDense.add(k);
                ctxShapes.add(TfTensors.shape(f.shape()));
                defaults.add(TfTensors.defaultConstant(tf, f));
            } else if (s instanceof VarLenFeature) {
                ctxSparse.add(k);
                ctxSparseT.add(TfTensors.type(s.dtype()));
            } else {
                RaggedFeature r = (RaggedFeature) s;
                ctxRaggedUsers.put(k, r.valueKey());
                if (!ctxRagged.contains(r.valueKey())) {
                    ctxRagged.add(r.valueKey());
                    ctxRaggedT.add(TfTensors.type(r.dtype()));
                    ctxSplitT.add(TfTensors.splitType(r.rowSplitsDtype()));
                    splitTypes.put("c:" + r.valueKey(), r.rowSplitsDtype());
                }
            }
        }
        for (Map.Entry<String, FeatureSpec> e : specs.featureLists().features().entrySet()) {
            String k = e.getKey();
            FeatureSpec s = e.getValue();
            if (s instanceof FixedLenSequenceFeature) {
                FixedLenSequenceFeature f = (FixedLenSequenceFeature) s;
                flDense.add(k);
                flDenseT.add(TfTensors.type(f.dtype()));
                flShapes.add(TfTensors.shape(f.shape()));
                missingOk.add(f.allowMissing());
            } else if (s instanceof VarLenFeature) {
                flSparse.add(k);
                flSparseT.add(TfTensors.type(s.dtype()));
            } else {
                RaggedFeature r = (RaggedFeature) s;
                flRaggedUsers.put(k, r.valueKey());
                if (!flRagged.contains(r.valueKey())) {
                    flRagged.add(r.valueKey());
                    flRaggedT.add(TfTensors.type(r.dtype()));
                    flSplitT.add(TfTensors.splitType(r.rowSplitsDtype()));
                    splitTypes.put("f:" + r.valueKey(), r.rowSplitsDtype());
                }
            }
        }
        boolean[] missing = new boolean[missingOk.size()];
        for (int i = 0; i < missing.length; i++) {
            missing[i] = missingOk.get(i);
        }
        try (TBool m =
                TBool.tensorOf(Shape.of(missing.length), DataBuffers.of(missing, true, false))) {
            op =
                    tf.io.parseSequenceExample(
                            serialized,
                            names,
                            TfTensors.strings(tf, ctxSparse),
                            TfTensors.strings(tf, ctxDense),
                            TfTensors.strings(tf, ctxRagged),
                            TfTensors.strings(tf, flSparse),
                            TfTensors.strings(tf, flDense),
                            TfTensors.strings(tf, flRagged),
                            tf.constantOf(m),
                            defaults,
                            ctxSparseT,
                            ctxRaggedT,
                            ctxSplitT,
                            flDenseT,
                            flSparseT,
                            flRaggedT,
                            flSplitT,
                            ParseSequenceExample.NcontextSparse((long) ctxSparse.size()),
                            ParseSequenceExample.contextDenseShapes(ctxShapes),
                            ParseSequenceExample.NfeatureListSparse((long) flSparse.size()),
                            ParseSequenceExample.NfeatureListDense((long) flDense.size()),
                            ParseSequenceExample.featureListDenseShapes(flShapes));
        }
        session = new Session(graph);
    }

    /** {@code parse_sequence_example(records, example_names=names)}; names may be null. */
    public Outcome parse(List<byte[]> records, List<String> exampleNames) {
        byte[][] recs = records.toArray(new byte[0][]);
        byte[][] n = new byte[exampleNames == null ? 0 : exampleNames.size()][];
        for (int i = 0; i < n.length; i++) {
            n[i] = exampleNames.get(i).getBytes(StandardCharsets.UTF_8);
        }
        try (TString s = TString.tensorOfBytes(Shape.of(recs.length), DataBuffers.ofObjects(recs));
                TString nm = TString.tensorOfBytes(Shape.of(n.length), DataBuffers.ofObjects(n))) {
            return run(s, nm, true);
        }
    }

    /** {@code parse_single_sequence_example(record, example_name=name)}; name may be null. */
    public Outcome parseSingle(byte[] record, String name) {
        byte[][] n =
                name == null ? new byte[0][] : new byte[][] {name.getBytes(StandardCharsets.UTF_8)};
        Shape ns = name == null ? Shape.of(0) : Shape.scalar();
        try (TString s =
                        TString.tensorOfBytes(
                                Shape.scalar(), DataBuffers.ofObjects(new byte[][] {record}));
                TString nm = TString.tensorOfBytes(ns, DataBuffers.ofObjects(n))) {
            return run(s, nm, false);
        }
    }

    private Outcome run(TString s, TString nm, boolean batch) {
        Session.Runner r = session.runner().feed(serialized, s).feed(names, nm);
        List<Output<?>> fetches = new ArrayList<>();
        fetches.addAll(op.contextSparseIndices());
        fetches.addAll(op.contextSparseValues());
        fetches.addAll(op.contextSparseShapes());
        fetches.addAll(op.contextDenseValues());
        fetches.addAll(op.contextRaggedValues());
        fetches.addAll(op.contextRaggedRowSplits());
        fetches.addAll(op.featureListSparseIndices());
        fetches.addAll(op.featureListSparseValues());
        fetches.addAll(op.featureListSparseShapes());
        fetches.addAll(op.featureListDenseValues());
        fetches.addAll(op.featureListDenseLengths());
        fetches.addAll(op.featureListRaggedValues());
        fetches.addAll(op.featureListRaggedOuterSplits());
        fetches.addAll(op.featureListRaggedInnerSplits());
        for (Output<?> o : fetches) {
            r.fetch(o);
        }
        try (Result res = r.run()) {
            return convert(res, batch);
        } catch (TensorFlowException | IllegalArgumentException e) {
            String m = e.getMessage();
            int cut = m.indexOf("\n\t [[");
            return new Outcome(null, null, null, cut >= 0 ? m.substring(0, cut) : m);
        }
    }

    private Outcome convert(Result res, boolean batch) {
        int[] at = {0};
        Map<String, Tensor> ctx = new TreeMap<>();
        Map<String, Tensor> fl = new TreeMap<>();
        Map<String, DenseTensor> len = new TreeMap<>();
        sparse(res, at, ctxSparse, ctx);
        for (String k : ctxDense) {
            ctx.put(k, TfTensors.dense(res.get(at[0]++)));
        }
        Map<String, Tensor> raw = new TreeMap<>();
        int base = at[0];
        int n = ctxRagged.size();
        for (int i = 0; i < n; i++) {
            String k = ctxRagged.get(i);
            org.tensorflow.Tensor values = res.get(base + i);
            if (batch) {
                raw.put(
                        k,
                        new RaggedTensor(
                                TfTensors.column(values),
                                values.shape().asArray(),
                                List.of(TfTensors.longs(res.get(base + n + i))),
                                splitTypes.get("c:" + k)));
            } else {
                raw.put(k, TfTensors.dense(values));
            }
        }
        ctxRaggedUsers.forEach((user, key) -> ctx.put(user, raw.get(key)));
        raw.clear();
        at[0] = base + 2 * n;
        sparse(res, at, flSparse, fl);
        for (String k : flDense) {
            fl.put(k, TfTensors.dense(res.get(at[0]++)));
        }
        for (String k : flDense) {
            len.put(k, TfTensors.dense(res.get(at[0]++)));
        }
        base = at[0];
        n = flRagged.size();
        for (int i = 0; i < n; i++) {
            String k = flRagged.get(i);
            org.tensorflow.Tensor values = res.get(base + i);
            long[] outer = TfTensors.longs(res.get(base + n + i));
            long[] inner = TfTensors.longs(res.get(base + 2 * n + i));
            raw.put(
                    k,
                    new RaggedTensor(
                            TfTensors.column(values),
                            values.shape().asArray(),
                            batch ? List.of(outer, inner) : List.of(inner),
                            splitTypes.get("f:" + k)));
        }
        flRaggedUsers.forEach((user, key) -> fl.put(user, raw.get(key)));
        return new Outcome(ctx, fl, len, null);
    }

    private static void sparse(Result res, int[] at, List<String> keys, Map<String, Tensor> out) {
        int n = keys.size();
        int base = at[0];
        for (int i = 0; i < n; i++) {
            out.put(
                    keys.get(i),
                    new SparseTensor(
                            TfTensors.longs(res.get(base + i)),
                            TfTensors.column(res.get(base + n + i)),
                            TfTensors.longs(res.get(base + 2 * n + i))));
        }
        at[0] = base + 3 * n;
    }

    @Override
    public void close() {
        session.close();
        graph.close();
    }
}
