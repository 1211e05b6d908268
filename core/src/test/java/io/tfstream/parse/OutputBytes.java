package io.tfstream.parse;

import io.tfstream.spec.DType;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;

/** The bytes a parsed tensor's arrays hold: what the allocation tests compare allocation with. */
public final class OutputBytes {
    private OutputBytes() {}

    /** Bytes of {@code t}'s values, indices and row splits (the parsers hand their arrays over). */
    public static long of(Tensor t) {
        if (t instanceof DenseTensor d) {
            return of(d.values());
        } else if (t instanceof SparseTensor s) {
            return of(s.values()) + 8L * s.indicesArray().length;
        }
        RaggedTensor r = (RaggedTensor) t;
        long n = of(r.values());
        for (long[] splits : r.rowSplits()) {
            n += 8L * splits.length;
        }
        return n;
    }

    /** Bytes of a column's values (and offsets, for strings). */
    public static long of(Column c) {
        if (c.dtype() == DType.INT64) {
            return 8L * c.size();
        } else if (c.dtype() == DType.FLOAT32) {
            return 4L * c.size();
        }
        return c.bytesStart(c.size()) + 4L * (c.size() + 1);
    }
}
