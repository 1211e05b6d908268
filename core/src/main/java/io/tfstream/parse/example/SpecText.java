package io.tfstream.parse.example;

import io.tfstream.spec.DType;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import java.util.Collection;

/** Python's text forms of spec pieces, for error messages that match TensorFlow's. */
final class SpecText {
    private SpecText() {}

    /** {@code str(tf.DType)}: {@code <dtype: 'int64'>}. */
    static String dtype(DType d) {
        return "<dtype: '" + d.jsonName() + "'>";
    }

    static String splits(RowSplitsDType d) {
        return "<dtype: '" + d.jsonName() + "'>";
    }

    /** A Python set of strings: {@code {'a', 'b'}}. */
    static String pySet(Collection<String> items) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (String s : items) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append('\'').append(s).append('\'');
        }
        return sb.append('}').toString();
    }

    static String of(SparseFeature s) {
        return "SparseFeature(index_key="
                + s.indexKeys()
                + ", value_key='"
                + s.valueKey()
                + "', dtype="
                + dtype(s.dtype())
                + ", size="
                + s.size()
                + ", already_sorted="
                + (s.alreadySorted() ? "True" : "False")
                + ")";
    }
}
