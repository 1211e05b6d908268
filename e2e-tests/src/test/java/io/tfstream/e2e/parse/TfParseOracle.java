package io.tfstream.e2e.parse;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Output;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.Tensor;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.io.ParseExample;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TNumber;
import org.tensorflow.types.family.TType;

/**
 * TensorFlow's own {@code ParseExampleV2} kernel (TensorFlow Java, graph mode, one session reused)
 * for a feature-spec dict of FixedLen, FixedLenSequence, VarLen and partition-free Ragged features,
 * with a vector input ({@code parse_example}) or, built by {@link #scalar}, a scalar input as
 * {@code parse_single_example} passes it (a raw ragged feature then comes back as Python returns
 * it: its 1-D values as a dense tensor). The spec is lowered as Python's {@code
 * _ParseOpParams.from_features} and {@code _make_dense_default} do, independently of the parser
 * under test; outputs are converted to the project's tensor types, errors to TensorFlow's status
 * message.
 */
public final class TfParseOracle implements AutoCloseable {
    private static final String NODE_SUFFIX = "\n\t [[{{node ";
    private final List<String> sparseKeys = new ArrayList<>();
    private final List<String> denseKeys = new ArrayList<>();
    private final List<String> raggedKeys = new ArrayList<>();
    private final Map<String, FeatureSpec> specs = new TreeMap<>();
    private final Graph graph = new Graph();
    private final Session session;
    private final Placeholder<TString> input;
    private final Placeholder<TString> names;
    private final ParseExample op;
    private final boolean scalar;

    /** The outcome of one batch: the tensors by feature name, or TensorFlow's error message. */
    public record Outcome(Map<String, io.tfstream.tensor.Tensor> features, String error) {}

    public TfParseOracle(FeatureSpecs featureSpecs) {
        this(featureSpecs, false);
    }

    /** An oracle for {@code parse_single_example}: a scalar {@code serialized} input. */
    static TfParseOracle scalar(FeatureSpecs featureSpecs) {
        return new TfParseOracle(featureSpecs, true);
    }

    private TfParseOracle(FeatureSpecs featureSpecs, boolean scalar) {
        this.scalar = scalar;
        List<Class<? extends TType>> sparseTypes = new ArrayList<>();
        List<Class<? extends TType>> raggedTypes = new ArrayList<>();
        List<Class<? extends TNumber>> splitTypes = new ArrayList<>();
        List<Shape> denseShapes = new ArrayList<>();
        List<Operand<?>> defaults = new ArrayList<>();
        Ops tf = Ops.create(graph);
        for (Map.Entry<String, FeatureSpec> e : featureSpecs.features().entrySet()) {
            String name = e.getKey();
            FeatureSpec spec = e.getValue();
            specs.put(name, spec);
            if (spec instanceof VarLenFeature v) {
                sparseKeys.add(name);
                sparseTypes.add(type(v.dtype()));
            } else if (spec instanceof RaggedFeature r) {
                if (!r.partitions().isEmpty() || !r.valueKey().equals(name)) {
                    throw new IllegalArgumentException("oracle supports raw ragged only: " + name);
                }
                raggedKeys.add(name);
                raggedTypes.add(type(r.dtype()));
                splitTypes.add(
                        r.rowSplitsDtype() == RowSplitsDType.INT32 ? TInt32.class : TInt64.class);
            } else if (spec instanceof FixedLenFeature f) {
                denseKeys.add(name);
                long[] dims = dims(f.shape());
                denseShapes.add(Shape.of(dims));
                defaults.add(
                        f.defaultValue().isPresent()
                                ? constant(tf, f.defaultValue().get(), dims)
                                : constant(tf, DefaultValue.zero(f.dtype()).repeat(0), 0));
            } else if (spec instanceof FixedLenSequenceFeature f) {
                denseKeys.add(name);
                long[] step = dims(f.shape());
                long[] dims = new long[step.length + 1];
                dims[0] = Shape.UNKNOWN_SIZE;
                System.arraycopy(step, 0, dims, 1, step.length);
                denseShapes.add(Shape.of(dims));
                defaults.add(constant(tf, f.paddingValue(), new long[0]));
            } else {
                throw new IllegalArgumentException("oracle does not support " + spec);
            }
        }
        input =
                tf.placeholder(
                        TString.class,
                        Placeholder.shape(scalar ? Shape.scalar() : Shape.of(Shape.UNKNOWN_SIZE)));
        names = tf.placeholder(TString.class, Placeholder.shape(Shape.of(Shape.UNKNOWN_SIZE)));
        op =
                tf.io.parseExample(
                        input,
                        names,
                        strings(tf, sparseKeys),
                        strings(tf, denseKeys),
                        strings(tf, raggedKeys),
                        defaults,
                        (long) sparseKeys.size(),
                        sparseTypes,
                        raggedTypes,
                        splitTypes,
                        denseShapes);
        session = new Session(graph);
    }

    /** Runs the scalar kernel on one record; needs an oracle built by {@link #scalar}. */
    Outcome parseSingle(byte[] record) {
        if (!scalar) {
            throw new IllegalStateException("not a scalar oracle");
        }
        return run(
                TString.tensorOfBytes(
                        Shape.scalar(), DataBuffers.of(new byte[][] {record}, true, false)),
                List.of());
    }

    /** Runs the kernel on {@code records} (an empty list is a batch of 0). */
    public Outcome parse(List<byte[]> records) {
        return parse(records, List.of());
    }

    /** As {@link #parse(List)} with example names for the messages (empty: none). */
    Outcome parse(List<byte[]> records, List<String> exampleNames) {
        if (scalar) {
            throw new IllegalStateException("a scalar oracle parses one record");
        }
        byte[][] arr = records.toArray(new byte[0][]);
        return run(
                TString.tensorOfBytes(Shape.of(arr.length), DataBuffers.of(arr, true, false)),
                exampleNames);
    }

    private Outcome run(TString in, List<String> exampleNames) {
        Session.Runner runner = session.runner();
        List<Output<?>> fetches = new ArrayList<>();
        fetches.addAll(op.sparseIndices());
        fetches.addAll(op.sparseValues());
        fetches.addAll(op.sparseShapes());
        fetches.addAll(op.denseValues());
        fetches.addAll(op.raggedValues());
        fetches.addAll(op.raggedRowSplits());
        for (Output<?> o : fetches) {
            runner.fetch(o);
        }
        try (in;
                TString nm = stringTensor(exampleNames)) {
            runner.feed(input, in);
            runner.feed(names, nm);
            try (Result r = runner.run()) {
                return new Outcome(convert(r), null);
            }
        } catch (TensorFlowException | IllegalArgumentException e) {
            return new Outcome(null, statusMessage(e.getMessage()));
        }
    }

    /** The core status message, without the node annotation graph execution appends. */
    static String statusMessage(String m) {
        int at = m.lastIndexOf(NODE_SUFFIX);
        return at >= 0 && m.endsWith("}}]]") ? m.substring(0, at) : m;
    }

    private Map<String, io.tfstream.tensor.Tensor> convert(Result r) {
        Map<String, io.tfstream.tensor.Tensor> out = new TreeMap<>();
        int ns = sparseKeys.size();
        int nd = denseKeys.size();
        int nr = raggedKeys.size();
        for (int i = 0; i < ns; i++) {
            String name = sparseKeys.get(i);
            long[] indices = longs(r.get(i));
            Column values = column(r.get(ns + i), specs.get(name).dtype());
            long[] shape = longs(r.get(2 * ns + i));
            out.put(name, new SparseTensor(indices, values, shape));
        }
        for (int i = 0; i < nd; i++) {
            String name = denseKeys.get(i);
            Tensor t = r.get(3 * ns + i);
            out.put(name, new DenseTensor(t.shape().asArray(), column(t, specs.get(name).dtype())));
        }
        for (int i = 0; i < nr; i++) {
            String name = raggedKeys.get(i);
            RaggedFeature spec = (RaggedFeature) specs.get(name);
            Column values = column(r.get(3 * ns + nd + i), spec.dtype());
            Tensor splitsTensor = r.get(3 * ns + nd + nr + i);
            if (scalar) {
                if (splitsTensor.shape().size() != 0) {
                    throw new AssertionError("scalar input gave row splits for " + name);
                }
                out.put(name, new DenseTensor(new long[] {values.size()}, values));
                continue;
            }
            long[] splits;
            if (spec.rowSplitsDtype() == RowSplitsDType.INT32) {
                if (!(splitsTensor instanceof TInt32 t32)) {
                    throw new AssertionError("expected int32 row splits for " + name);
                }
                int[] s = new int[(int) t32.shape().size()];
                t32.copyTo(DataBuffers.of(s, false, false));
                splits = new long[s.length];
                for (int j = 0; j < s.length; j++) {
                    splits[j] = s[j];
                }
            } else {
                splits = longs(splitsTensor);
            }
            out.put(
                    name,
                    new RaggedTensor(
                            values,
                            new long[] {values.size()},
                            List.of(splits),
                            spec.rowSplitsDtype()));
        }
        return out;
    }

    private static long[] longs(Tensor t) {
        TInt64 l = (TInt64) t;
        long[] a = new long[(int) l.shape().size()];
        l.copyTo(DataBuffers.of(a, false, false));
        return a;
    }

    private static Column column(Tensor t, DType dtype) {
        int n = (int) t.shape().size();
        switch (dtype) {
            case INT64:
                return Column.ofInt64(longs(t), n);
            case FLOAT32:
                float[] f = new float[n];
                ((TFloat32) t).copyTo(DataBuffers.of(f, false, false));
                return Column.ofFloat32(f, n);
            default:
                byte[][] b = new byte[n][];
                ((TString) t).asBytes().copyTo(DataBuffers.of(b, false, false));
                return Column.strings(b);
        }
    }

    private static Class<? extends TType> type(DType d) {
        switch (d) {
            case INT64:
                return TInt64.class;
            case FLOAT32:
                return TFloat32.class;
            default:
                return TString.class;
        }
    }

    private static long[] dims(List<Long> shape) {
        long[] d = new long[shape.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = shape.get(i);
        }
        return d;
    }

    private static Operand<TString> strings(Ops tf, List<String> values) {
        try (TString t = stringTensor(values)) {
            return tf.constantOf(t);
        }
    }

    private static TString stringTensor(List<String> values) {
        byte[][] b = new byte[values.size()][];
        for (int i = 0; i < b.length; i++) {
            b[i] = values.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        return TString.tensorOfBytes(Shape.of(b.length), DataBuffers.of(b, true, false));
    }

    /** A default as Python passes it: reshaped to {@code dims} (empty = required). */
    private static Operand<?> constant(Ops tf, DefaultValue d, long... dims) {
        Shape shape = Shape.of(dims);
        int n = d.size();
        switch (d.dtype()) {
            case INT64:
                try (TInt64 t = TInt64.tensorOf(shape, DataBuffers.of(d.int64s(), true, false))) {
                    return tf.constantOf(t);
                }
            case FLOAT32:
                try (TFloat32 t =
                        TFloat32.tensorOf(shape, DataBuffers.of(d.float32s(), true, false))) {
                    return tf.constantOf(t);
                }
            default:
                byte[][] b = new byte[n][];
                for (int i = 0; i < n; i++) {
                    b[i] = d.bytesAt(i);
                }
                try (TString t = TString.tensorOfBytes(shape, DataBuffers.of(b, true, false))) {
                    return tf.constantOf(t);
                }
        }
    }

    @Override
    public void close() {
        session.close();
        graph.close();
    }
}
