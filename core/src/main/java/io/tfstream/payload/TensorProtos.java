package io.tfstream.payload;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.tfstream.tensor.Column;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.tensorflow.framework.DataType;
import org.tensorflow.framework.TensorProto;
import org.tensorflow.framework.TensorShapeProto;

/**
 * One tensor as a {@code tensorflow.TensorProto} the way {@code tf.io.serialize_tensor} writes it:
 * numbers little-endian in {@code tensor_content}, strings in {@code string_val}; and back.
 */
final class TensorProtos {
    private TensorProtos() {}

    static TensorProto column(Column c, long[] shape) {
        TensorProto.Builder b = TensorProto.newBuilder().setTensorShape(shape(shape));
        int n = c.size();
        switch (c.dtype()) {
            case INT64:
                return b.setDtype(DataType.DT_INT64)
                        .setTensorContent(int64s(c.int64Array(), n))
                        .build();
            case FLOAT32:
                {
                    ByteBuffer buf = ByteBuffer.allocate(n * 4).order(ByteOrder.LITTLE_ENDIAN);
                    buf.asFloatBuffer().put(c.float32Array(), 0, n);
                    return b.setDtype(DataType.DT_FLOAT)
                            .setTensorContent(UnsafeByteOperations.unsafeWrap(buf.array()))
                            .build();
                }
            default:
                b.setDtype(DataType.DT_STRING);
                // Views of the column's own bytes, not copies: a parsed column owns its arrays and
                // is never modified afterwards.
                ByteString data = UnsafeByteOperations.unsafeWrap(c.bytesData());
                for (int i = 0; i < n; i++) {
                    int start = c.bytesStart(i);
                    b.addStringVal(data.substring(start, start + c.bytesLength(i)));
                }
                return b.build();
        }
    }

    static TensorProto int64(long[] values, long[] shape) {
        return TensorProto.newBuilder()
                .setDtype(DataType.DT_INT64)
                .setTensorShape(shape(shape))
                .setTensorContent(int64s(values, values.length))
                .build();
    }

    static TensorProto int32(long[] values, long[] shape) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            buf.putInt(Math.toIntExact(v));
        }
        return TensorProto.newBuilder()
                .setDtype(DataType.DT_INT32)
                .setTensorShape(shape(shape))
                .setTensorContent(UnsafeByteOperations.unsafeWrap(buf.array()))
                .build();
    }

    private static ByteString int64s(long[] values, int n) {
        ByteBuffer buf = ByteBuffer.allocate(n * 8).order(ByteOrder.LITTLE_ENDIAN);
        buf.asLongBuffer().put(values, 0, n);
        // The buffer is this tensor's alone: wrapped, not copied again.
        return UnsafeByteOperations.unsafeWrap(buf.array());
    }

    private static TensorShapeProto shape(long[] dims) {
        TensorShapeProto.Builder s = TensorShapeProto.newBuilder();
        for (long d : dims) {
            s.addDim(TensorShapeProto.Dim.newBuilder().setSize(d));
        }
        return s.build();
    }

    static long[] shapeOf(TensorProto t) {
        long[] dims = new long[t.getTensorShape().getDimCount()];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = t.getTensorShape().getDim(i).getSize();
        }
        return dims;
    }

    static long elements(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /**
     * The element count {@code t}'s shape declares, for decoding: refused when a dimension is
     * negative or the count exceeds an array's reach. Checked, like the content's size, before
     * anything is allocated, so a few bytes cannot ask for gigabytes.
     */
    private static int declaredElements(String name, TensorProto t) {
        long n = 1;
        for (long d : shapeOf(t)) {
            if (d < 0) {
                throw new IllegalArgumentException(
                        "tensor '" + name + "' has a negative dimension " + d);
            }
            try {
                n = Math.multiplyExact(n, d);
            } catch (ArithmeticException e) {
                n = Long.MAX_VALUE;
            }
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "tensor '" + name + "' declares " + n + " elements, more than one array holds");
        }
        return (int) n;
    }

    /**
     * The bytes decoding {@code t} takes on the heap: its declared elements times their size (a
     * string counts its reference and its bytes), from the shape alone, before anything is
     * allocated.
     */
    static long declaredBytes(String name, TensorProto t) {
        long n = declaredElements(name, t);
        switch (t.getDtype()) {
            case DT_STRING:
                long bytes = 0;
                for (int i = 0; i < t.getStringValCount(); i++) {
                    bytes += t.getStringVal(i).size();
                }
                return 8 * n + bytes;
            case DT_INT32:
            case DT_FLOAT:
                return 4 * n;
            default:
                return 8 * n;
        }
    }

    /** The values of a numeric or string tensor as a column. */
    static Column toColumn(String name, TensorProto t) {
        int n = declaredElements(name, t);
        switch (t.getDtype()) {
            case DT_INT64:
                {
                    ByteBuffer b = content(name, t, 8L * n);
                    long[] v = new long[n];
                    b.asLongBuffer().get(v);
                    return Column.ofInt64(v, n);
                }
            case DT_FLOAT:
                {
                    ByteBuffer b = content(name, t, 4L * n);
                    float[] v = new float[n];
                    b.asFloatBuffer().get(v);
                    return Column.ofFloat32(v, n);
                }
            case DT_STRING:
                {
                    if (t.getStringValCount() != n) {
                        throw new IllegalArgumentException(
                                "tensor '"
                                        + name
                                        + "' has "
                                        + t.getStringValCount()
                                        + " strings for "
                                        + n
                                        + " elements");
                    }
                    byte[][] v = new byte[n][];
                    for (int i = 0; i < n; i++) {
                        v[i] = t.getStringVal(i).toByteArray();
                    }
                    return Column.strings(v);
                }
            default:
                throw new IllegalArgumentException(
                        "tensor '"
                                + name
                                + "' has dtype "
                                + t.getDtype()
                                + ", not int64, float or string");
        }
    }

    /** An int64 or int32 tensor's values as longs. */
    static long[] toLongs(String name, TensorProto t) {
        int n = declaredElements(name, t);
        if (t.getDtype() == DataType.DT_INT32) {
            ByteBuffer b = content(name, t, 4L * n);
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = b.getInt();
            }
            return v;
        } else if (t.getDtype() == DataType.DT_INT64) {
            ByteBuffer b = content(name, t, 8L * n);
            long[] v = new long[n];
            b.asLongBuffer().get(v);
            return v;
        } else {
            throw new IllegalArgumentException(
                    "tensor '" + name + "' has dtype " + t.getDtype() + ", not int32 or int64");
        }
    }

    private static ByteBuffer content(String name, TensorProto t, long bytes) {
        ByteString c = t.getTensorContent();
        if (c.size() != bytes) {
            throw new IllegalArgumentException(
                    "tensor '"
                            + name
                            + "' has "
                            + c.size()
                            + " content bytes, its shape needs "
                            + bytes);
        }
        return c.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }
}
