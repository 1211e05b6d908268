package io.tfstream.bench.parse;

import io.tfstream.spec.DType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.tensorflow.Operand;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.TInt64;
import org.tensorflow.types.TString;
import org.tensorflow.types.family.TType;

/** Small helpers for building TensorFlow parse graphs. */
final class TfGraphs {
    private TfGraphs() {}

    /** One intra-op and one inter-op thread: the kernel runs on the calling thread's budget. */
    static ConfigProto singleThreaded() {
        return ConfigProto.newBuilder()
                .setIntraOpParallelismThreads(1)
                .setInterOpParallelismThreads(1)
                .build();
    }

    static Class<? extends TType> type(DType d) {
        switch (d) {
            case INT64:
                return TInt64.class;
            case FLOAT32:
                return TFloat32.class;
            default:
                return TString.class;
        }
    }

    static Shape shape(List<Long> dims) {
        long[] a = new long[dims.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = dims.get(i);
        }
        return Shape.of(a);
    }

    static Operand<TString> strings(Ops tf, List<String> values) {
        byte[][] b = new byte[values.size()][];
        for (int i = 0; i < b.length; i++) {
            b[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
        }
        try (TString t =
                TString.tensorOfBytes(Shape.of(b.length), DataBuffers.of(b, true, false))) {
            return tf.constantOf(t);
        }
    }

    /** The empty default Python passes for a required dense feature. */
    static Operand<?> emptyDefault(Ops tf, DType d) {
        switch (d) {
            case INT64:
                return tf.constant(Shape.of(0), DataBuffers.of(new long[0], true, false));
            case FLOAT32:
                return tf.constant(Shape.of(0), DataBuffers.of(new float[0], true, false));
            default:
                try (TString t =
                        TString.tensorOfBytes(
                                Shape.of(0), DataBuffers.of(new byte[0][], true, false))) {
                    return tf.constantOf(t);
                }
        }
    }
}
