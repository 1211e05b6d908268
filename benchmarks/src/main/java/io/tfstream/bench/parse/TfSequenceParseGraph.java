package io.tfstream.bench.parse;

import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Session;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.io.ParseSequenceExample;
import org.tensorflow.types.TBool;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TNumber;
import org.tensorflow.types.family.TType;

/**
 * TensorFlow's {@code ParseSequenceExampleV2} kernel run as {@link TfExampleParseGraph} runs {@code
 * ParseExampleV2}: one single-threaded session, prebuilt input, outputs not fetched. Context
 * FixedLen (required) and feature-list FixedLenSequence, VarLen and raw Ragged features.
 */
final class TfSequenceParseGraph implements AutoCloseable {
    private final Graph graph = new Graph();
    private final Session session;
    private final Placeholder<TString> input;
    private final ParseSequenceExample op;

    TfSequenceParseGraph(SequenceFeatureSpecs specs) {
        Ops tf = Ops.create(graph);
        List<String> ctxDense = new ArrayList<>();
        List<Shape> ctxShapes = new ArrayList<>();
        List<Operand<?>> defaults = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : specs.context().features().entrySet()) {
            if (!(e.getValue() instanceof FixedLenFeature f) || f.defaultValue().isPresent()) {
                throw new IllegalArgumentException("not supported: " + e.getValue());
            }
            ctxDense.add(e.getKey());
            ctxShapes.add(TfGraphs.shape(f.shape()));
            defaults.add(TfGraphs.emptyDefault(tf, f.dtype()));
        }
        List<String> flDense = new ArrayList<>();
        List<String> flSparse = new ArrayList<>();
        List<String> flRagged = new ArrayList<>();
        List<Class<? extends TType>> flDenseT = new ArrayList<>();
        List<Class<? extends TType>> flSparseT = new ArrayList<>();
        List<Class<? extends TType>> flRaggedT = new ArrayList<>();
        List<Class<? extends TNumber>> flSplitT = new ArrayList<>();
        List<Shape> flShapes = new ArrayList<>();
        List<Boolean> missingOk = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : specs.featureLists().features().entrySet()) {
            FeatureSpec s = e.getValue();
            if (s instanceof FixedLenSequenceFeature f) {
                flDense.add(e.getKey());
                flDenseT.add(TfGraphs.type(f.dtype()));
                flShapes.add(TfGraphs.shape(f.shape()));
                missingOk.add(f.allowMissing());
            } else if (s instanceof VarLenFeature) {
                flSparse.add(e.getKey());
                flSparseT.add(TfGraphs.type(s.dtype()));
            } else if (s instanceof RaggedFeature r && r.partitions().isEmpty()) {
                flRagged.add(r.valueKey());
                flRaggedT.add(TfGraphs.type(r.dtype()));
                flSplitT.add(
                        r.rowSplitsDtype() == RowSplitsDType.INT32 ? TInt32.class : TInt64.class);
            } else {
                throw new IllegalArgumentException("not supported: " + s);
            }
        }
        boolean[] missing = new boolean[missingOk.size()];
        for (int i = 0; i < missing.length; i++) {
            missing[i] = missingOk.get(i);
        }
        input = tf.placeholder(TString.class, Placeholder.shape(Shape.of(Shape.UNKNOWN_SIZE)));
        try (TBool m =
                TBool.tensorOf(Shape.of(missing.length), DataBuffers.of(missing, true, false))) {
            op =
                    tf.io.parseSequenceExample(
                            input,
                            TfGraphs.strings(tf, List.of()),
                            TfGraphs.strings(tf, List.of()),
                            TfGraphs.strings(tf, ctxDense),
                            TfGraphs.strings(tf, List.of()),
                            TfGraphs.strings(tf, flSparse),
                            TfGraphs.strings(tf, flDense),
                            TfGraphs.strings(tf, flRagged),
                            tf.constantOf(m),
                            defaults,
                            List.of(),
                            List.of(),
                            List.of(),
                            flDenseT,
                            flSparseT,
                            flRaggedT,
                            flSplitT,
                            ParseSequenceExample.NcontextSparse(0L),
                            ParseSequenceExample.contextDenseShapes(ctxShapes),
                            ParseSequenceExample.NfeatureListSparse((long) flSparse.size()),
                            ParseSequenceExample.NfeatureListDense((long) flDense.size()),
                            ParseSequenceExample.featureListDenseShapes(flShapes));
        }
        session = new Session(graph, TfGraphs.singleThreaded());
    }

    /** Runs the kernel on {@code batch} without fetching its outputs. */
    void run(TString batch) {
        session.runner().feed(input, batch).addTarget(op).run().close();
    }

    @Override
    public void close() {
        session.close();
        graph.close();
    }
}
