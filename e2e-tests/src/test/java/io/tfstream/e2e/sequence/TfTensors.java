package io.tfstream.e2e.sequence;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.tensorflow.Operand;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TNumber;
import org.tensorflow.types.family.TType;

/** Conversions between TF Java tensors and constants and this project's tensor and spec types. */
public final class TfTensors {
    private TfTensors() {}

    public static DenseTensor dense(org.tensorflow.Tensor t) {
        return new DenseTensor(t.shape().asArray(), column(t));
    }

    public static long[] longs(org.tensorflow.Tensor t) {
        int n = (int) t.shape().size();
        long[] a = new long[n];
        if (t instanceof TInt32) {
            int[] b = new int[n];
            t.asRawTensor().data().asInts().read(b);
            for (int i = 0; i < n; i++) {
                a[i] = b[i];
            }
        } else {
            t.asRawTensor().data().asLongs().read(a);
        }
        return a;
    }

    public static Column column(org.tensorflow.Tensor t) {
        int n = (int) t.shape().size();
        if (t instanceof TInt64) {
            return Column.ofInt64(longs(t), n);
        }
        if (t instanceof TFloat32) {
            float[] f = new float[n];
            t.asRawTensor().data().asFloats().read(f);
            return Column.ofFloat32(f, n);
        }
        BytesBuffer b = new BytesBuffer(n, 64);
        ((TString) t)
                .asBytes()
                .scalars()
                .forEach(
                        s -> {
                            byte[] v = s.getObject();
                            b.add(v, 0, v.length);
                        });
        return Column.of(b);
    }

    static Operand<TString> strings(Ops tf, List<String> keys) {
        byte[][] b = new byte[keys.size()][];
        for (int i = 0; i < b.length; i++) {
            b[i] = keys.get(i).getBytes(StandardCharsets.UTF_8);
        }
        try (TString t = TString.tensorOfBytes(Shape.of(b.length), DataBuffers.ofObjects(b))) {
            return tf.constantOf(t);
        }
    }

    static Operand<?> defaultConstant(Ops tf, FixedLenFeature f) {
        Shape shape = f.defaultValue().isPresent() ? shape(f.shape()) : Shape.of(0);
        DefaultValue d = f.defaultValue().orElse(null);
        switch (f.dtype()) {
            case INT64:
                long[] l = d == null ? new long[0] : d.int64s();
                return tf.constant(shape, DataBuffers.of(l, true, false));
            case FLOAT32:
                float[] x = d == null ? new float[0] : d.float32s();
                return tf.constant(shape, DataBuffers.of(x, true, false));
            default:
                byte[][] b = new byte[d == null ? 0 : d.size()][];
                for (int i = 0; i < b.length; i++) {
                    b[i] = d.bytesAt(i);
                }
                try (TString t = TString.tensorOfBytes(shape, DataBuffers.ofObjects(b))) {
                    return tf.constantOf(t);
                }
        }
    }

    static Shape shape(List<Long> dims) {
        long[] a = new long[dims.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = dims.get(i);
        }
        return Shape.of(a);
    }

    static Class<? extends TType> type(DType t) {
        switch (t) {
            case INT64:
                return TInt64.class;
            case FLOAT32:
                return TFloat32.class;
            default:
                return TString.class;
        }
    }

    static Class<? extends TNumber> splitType(RowSplitsDType t) {
        return t == RowSplitsDType.INT32 ? TInt32.class : TInt64.class;
    }
}
