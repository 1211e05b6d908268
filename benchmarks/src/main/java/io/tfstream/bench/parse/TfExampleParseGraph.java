package io.tfstream.bench.parse;

import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
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
import org.tensorflow.op.io.ParseExample;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TNumber;
import org.tensorflow.types.family.TType;

/**
 * TensorFlow's {@code ParseExampleV2} kernel in graph mode: one session with one intra- and one
 * inter-op thread, the serialized batch fed as a prebuilt string tensor and the parse op run as a
 * target, so its outputs are computed but never copied to Java. Lowers FixedLen (required), VarLen
 * and raw Ragged features as Python's {@code parse_example} does.
 */
final class TfExampleParseGraph implements AutoCloseable {
    private final Graph graph = new Graph();
    private final Session session;
    private final Placeholder<TString> input;
    private final ParseExample op;

    TfExampleParseGraph(FeatureSpecs specs) {
        Ops tf = Ops.create(graph);
        List<String> sparse = new ArrayList<>();
        List<String> dense = new ArrayList<>();
        List<String> ragged = new ArrayList<>();
        List<Class<? extends TType>> sparseTypes = new ArrayList<>();
        List<Class<? extends TType>> raggedTypes = new ArrayList<>();
        List<Class<? extends TNumber>> splitTypes = new ArrayList<>();
        List<Shape> denseShapes = new ArrayList<>();
        List<Operand<?>> defaults = new ArrayList<>();
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            FeatureSpec spec = e.getValue();
            if (spec instanceof VarLenFeature) {
                sparse.add(e.getKey());
                sparseTypes.add(TfGraphs.type(spec.dtype()));
            } else if (spec instanceof RaggedFeature r && r.partitions().isEmpty()) {
                ragged.add(r.valueKey());
                raggedTypes.add(TfGraphs.type(r.dtype()));
                splitTypes.add(
                        r.rowSplitsDtype() == RowSplitsDType.INT32 ? TInt32.class : TInt64.class);
            } else if (spec instanceof FixedLenFeature f && f.defaultValue().isEmpty()) {
                dense.add(e.getKey());
                denseShapes.add(TfGraphs.shape(f.shape()));
                defaults.add(TfGraphs.emptyDefault(tf, f.dtype()));
            } else {
                throw new IllegalArgumentException("not supported by the benchmark: " + spec);
            }
        }
        input = tf.placeholder(TString.class, Placeholder.shape(Shape.of(Shape.UNKNOWN_SIZE)));
        op =
                tf.io.parseExample(
                        input,
                        TfGraphs.strings(tf, List.of()),
                        TfGraphs.strings(tf, sparse),
                        TfGraphs.strings(tf, dense),
                        TfGraphs.strings(tf, ragged),
                        defaults,
                        (long) sparse.size(),
                        sparseTypes,
                        raggedTypes,
                        splitTypes,
                        denseShapes);
        session = new Session(graph, TfGraphs.singleThreaded());
    }

    /** The batch as the string tensor the kernel reads; the caller closes it. */
    static TString batch(List<byte[]> records) {
        byte[][] arr = records.toArray(new byte[0][]);
        return TString.tensorOfBytes(Shape.of(arr.length), DataBuffers.of(arr, true, false));
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
