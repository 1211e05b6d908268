package io.tfstream.payload;

import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.tensorflow.framework.DataType;
import org.tensorflow.framework.TensorProto;

/**
 * The tensors of a parsed batch as the {@code tensors} map of a {@code tfstream.v1.TensorBatch}
 * (docs/streaming-job.md#tensor-payloads), and back. Names: {@code <name>} for a dense tensor;
 * {@code <name>/indices} (int64 {@code [N, rank]}), {@code <name>/values}, {@code
 * <name>/dense_shape} for a sparse one; {@code <name>/values}, {@code <name>/row_splits}
 * (outermost), {@code <name>/row_splits/1}, ... for a ragged one (int32 or int64 as its spec says).
 * SequenceExample outputs go under {@code context/}, {@code feature_list/} and {@code
 * feature_list_lengths/}. Each tensor is what {@code tf.io.parse_tensor} reads back to the {@code
 * parse_example} output.
 */
public final class TensorBatchCodec {
    public static final String CONTEXT = "context/";
    public static final String FEATURE_LIST = "feature_list/";
    public static final String FEATURE_LIST_LENGTHS = "feature_list_lengths/";

    private TensorBatchCodec() {}

    /** A message holding the tensors and the row count of {@code batch}. */
    public static TensorBatch.Builder encode(ParsedRows batch) {
        TensorBatch.Builder b = TensorBatch.newBuilder().setRows(batch.rows());
        visit(
                batch,
                new Visitor() {
                    @Override
                    public void column(String name, Column c, long[] shape) {
                        b.putTensors(name, TensorProtos.column(c, shape));
                    }

                    @Override
                    public void int64(String name, long[] values, long[] shape) {
                        b.putTensors(name, TensorProtos.int64(values, shape));
                    }

                    @Override
                    public void int32(String name, long[] values, long[] shape) {
                        b.putTensors(name, TensorProtos.int32(values, shape));
                    }
                });
        return b;
    }

    /** Receives the tensors of a batch by name: the one naming of the contract, two encoders. */
    interface Visitor {
        /** A column's values as a tensor of its dtype. */
        void column(String name, Column c, long[] shape);

        /** {@code values} (all of the array) as an int64 tensor. */
        void int64(String name, long[] values, long[] shape);

        /** {@code values} (all of the array, each fitting an int) as an int32 tensor. */
        void int32(String name, long[] values, long[] shape);
    }

    /** Hands every tensor of {@code batch}, named as in the contract, to {@code v}. */
    static void visit(ParsedRows batch, Visitor v) {
        if (batch instanceof ParsedBatch p) {
            visit(v, "", p.features());
        } else {
            ParsedSequenceBatch s = (ParsedSequenceBatch) batch;
            visit(v, CONTEXT, s.context());
            visit(v, FEATURE_LIST, s.featureLists());
            visit(v, FEATURE_LIST_LENGTHS, s.featureListLengths());
        }
    }

    private static void visit(Visitor v, String prefix, Map<String, ? extends Tensor> tensors) {
        for (Map.Entry<String, ? extends Tensor> e : tensors.entrySet()) {
            String name = prefix + e.getKey();
            Tensor t = e.getValue();
            if (t instanceof DenseTensor d) {
                v.column(name, d.values(), d.shape());
            } else if (t instanceof SparseTensor s) {
                long[] dense = s.denseShape();
                int n = s.numValues();
                long[] indices = java.util.Arrays.copyOf(s.indicesArray(), n * dense.length);
                v.int64(name + "/indices", indices, new long[] {n, dense.length});
                v.column(name + "/values", s.values(), new long[] {n});
                v.int64(name + "/dense_shape", dense, new long[] {dense.length});
            } else {
                RaggedTensor r = (RaggedTensor) t;
                v.column(name + "/values", r.values(), r.valuesShape());
                List<long[]> splits = r.rowSplits();
                for (int k = 0; k < splits.size(); k++) {
                    long[] s = splits.get(k);
                    long[] shape = {s.length};
                    String n = name + "/row_splits" + (k == 0 ? "" : "/" + k);
                    if (r.rowSplitsDtype() == RowSplitsDType.INT32) {
                        v.int32(n, s, shape);
                    } else {
                        v.int64(n, s, shape);
                    }
                }
            }
        }
    }

    /**
     * The tensors of {@code message} under {@code prefix} ({@code ""} for Examples, or one of the
     * SequenceExample prefixes), keyed by feature name without the prefix. A name with {@code
     * /indices}, {@code /values} and {@code /dense_shape} siblings is sparse; one with {@code
     * /values} and {@code /row_splits} is ragged; any other is dense.
     *
     * @throws IllegalArgumentException when a tensor's content does not match its shape or dtype
     */
    public static SortedMap<String, Tensor> decode(TensorBatch message, String prefix) {
        return decode(message, prefix, defaultMaxTotalBytes(message.getSerializedSize()));
    }

    /**
     * The default budget for decoding a payload of {@code payloadBytes}: max(64 MiB, 1024 x its
     * bytes), as the Python client's {@code max_total_bytes}.
     */
    public static long defaultMaxTotalBytes(long payloadBytes) {
        return Math.max(64L << 20, 1024L * payloadBytes);
    }

    /**
     * {@link #decode(TensorBatch, String)} within {@code maxTotalBytes}: the bytes every tensor's
     * shape declares, in total, are checked against it before anything is allocated.
     *
     * @throws IllegalArgumentException when the tensors declare more, or do not match their shapes
     */
    public static SortedMap<String, Tensor> decode(
            TensorBatch message, String prefix, long maxTotalBytes) {
        Map<String, TensorProto> all = new TreeMap<>();
        long declared = 0;
        for (Map.Entry<String, TensorProto> e : message.getTensorsMap().entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                all.put(e.getKey().substring(prefix.length()), e.getValue());
                declared += TensorProtos.declaredBytes(e.getKey(), e.getValue());
                if (declared > maxTotalBytes) {
                    throw new IllegalArgumentException(
                            "the tensors of a payload of "
                                    + message.getSerializedSize()
                                    + " bytes declare more than "
                                    + maxTotalBytes
                                    + " bytes in total (the decoding budget)");
                }
            }
        }
        SortedMap<String, Tensor> out = new TreeMap<>();
        Set<String> used = new HashSet<>();
        for (String name : all.keySet()) {
            if (name.endsWith("/indices")) {
                String base = name.substring(0, name.length() - "/indices".length());
                TensorProto values = all.get(base + "/values");
                TensorProto shape = all.get(base + "/dense_shape");
                if (values != null && shape != null) {
                    long[] dense = TensorProtos.toLongs(base + "/dense_shape", shape);
                    out.put(
                            base,
                            new SparseTensor(
                                    TensorProtos.toLongs(name, all.get(name)),
                                    TensorProtos.toColumn(base + "/values", values),
                                    dense));
                    used.addAll(List.of(name, base + "/values", base + "/dense_shape"));
                }
            } else if (name.endsWith("/row_splits")) {
                String base = name.substring(0, name.length() - "/row_splits".length());
                TensorProto values = all.get(base + "/values");
                if (values != null) {
                    List<long[]> splits = new ArrayList<>();
                    TensorProto outer = all.get(name);
                    RowSplitsDType dtype =
                            outer.getDtype() == DataType.DT_INT32
                                    ? RowSplitsDType.INT32
                                    : RowSplitsDType.INT64;
                    splits.add(TensorProtos.toLongs(name, outer));
                    used.add(name);
                    for (int k = 1; all.containsKey(name + "/" + k); k++) {
                        splits.add(TensorProtos.toLongs(name + "/" + k, all.get(name + "/" + k)));
                        used.add(name + "/" + k);
                    }
                    out.put(
                            base,
                            new RaggedTensor(
                                    TensorProtos.toColumn(base + "/values", values),
                                    TensorProtos.shapeOf(values),
                                    splits,
                                    dtype));
                    used.add(base + "/values");
                }
            }
        }
        for (Map.Entry<String, TensorProto> e : all.entrySet()) {
            if (!used.contains(e.getKey())) {
                out.put(
                        e.getKey(),
                        new DenseTensor(
                                TensorProtos.shapeOf(e.getValue()),
                                TensorProtos.toColumn(e.getKey(), e.getValue())));
            }
        }
        return out;
    }
}
