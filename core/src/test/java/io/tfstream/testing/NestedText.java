package io.tfstream.testing;

import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes a dense or ragged tensor as Python's nested-list form ({@code [[3,4],[],[5]]}, no spaces,
 * integral floats without a fraction, strings quoted), so that tests compare with upstream golden
 * values exactly as they are written there.
 */
public final class NestedText {
    private NestedText() {}

    public static String of(Tensor t) {
        StringBuilder sb = new StringBuilder();
        if (t instanceof DenseTensor d) {
            dense(sb, d.values(), d.shape(), 0, 0);
        } else {
            RaggedTensor r = (RaggedTensor) t;
            List<long[]> splits = r.rowSplits();
            long[] first = splits.get(0);
            level(sb, r, 0, 0, first.length - 1);
        }
        return sb.toString();
    }

    /** Python's form with all whitespace removed, for comparing with a copied golden value. */
    public static String normalize(String python) {
        return python.replaceAll("\\s+", "").replace('\'', '"');
    }

    private static void level(StringBuilder sb, RaggedTensor r, int lvl, long from, long to) {
        long[] s = r.rowSplits().get(lvl);
        sb.append('[');
        for (long row = from; row < to; row++) {
            if (row > from) {
                sb.append(',');
            }
            long a = s[(int) row];
            long b = s[(int) row + 1];
            if (lvl + 1 < r.rowSplits().size()) {
                level(sb, r, lvl + 1, a, b);
            } else {
                long[] shape = r.valuesShape();
                long inner = 1;
                for (int i = 1; i < shape.length; i++) {
                    inner *= shape[i];
                }
                long[] sub = java.util.Arrays.copyOfRange(shape, 1, shape.length);
                sb.append('[');
                for (long v = a; v < b; v++) {
                    if (v > a) {
                        sb.append(',');
                    }
                    if (sub.length == 0) {
                        value(sb, r.values(), (int) v);
                    } else {
                        dense(sb, r.values(), sub, 0, v * inner);
                    }
                }
                sb.append(']');
            }
        }
        sb.append(']');
    }

    private static long dense(StringBuilder sb, Column c, long[] shape, int dim, long at) {
        if (dim == shape.length) {
            value(sb, c, (int) at);
            return at + 1;
        }
        sb.append('[');
        for (long i = 0; i < shape[dim]; i++) {
            if (i > 0) {
                sb.append(',');
            }
            at = dense(sb, c, shape, dim + 1, at);
        }
        sb.append(']');
        return at;
    }

    private static void value(StringBuilder sb, Column c, int i) {
        switch (c.dtype()) {
            case INT64:
                sb.append(c.int64(i));
                break;
            case FLOAT32:
                float f = c.float32(i);
                if (f == Math.rint(f) && !Float.isInfinite(f)) {
                    sb.append((long) f);
                } else {
                    sb.append(f);
                }
                break;
            default:
                sb.append('"').append(new String(c.bytes(i), StandardCharsets.UTF_8)).append('"');
        }
    }
}
