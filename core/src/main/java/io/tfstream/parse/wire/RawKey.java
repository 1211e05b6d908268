package io.tfstream.parse.wire;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.RowSplitsDType;
import java.util.List;

/**
 * One key the kernel reads, after a feature-spec dict is lowered as Python's {@code _ParseOpParams}
 * does: a dense key (fixed shape, or variable length for FixedLenSequence), a sparse key (VarLen
 * and SparseFeature parts) or a ragged key (RaggedFeature values and partitions).
 */
public final class RawKey {
    public enum Kind {
        DENSE_FIXED,
        DENSE_VARLEN,
        SPARSE,
        RAGGED
    }

    public final String name;
    public final Kind kind;
    public final DType dtype;

    /** Dense: the shape of one example (fixed) or of one step (varlen). */
    public final List<Long> shape;

    /** Dense fixed: {@code prod(shape)}; dense varlen: values per step. */
    public final int stride;

    /** Dense fixed: the default ({@code null} = required); varlen: the padding value. */
    public final DefaultValue defaultValue;

    /** Ragged only. */
    public final RowSplitsDType splitsDtype;

    public RawKey(
            String name,
            Kind kind,
            DType dtype,
            List<Long> shape,
            int stride,
            DefaultValue defaultValue,
            RowSplitsDType splitsDtype) {
        this.name = name;
        this.kind = kind;
        this.dtype = dtype;
        this.shape = shape;
        this.stride = stride;
        this.defaultValue = defaultValue;
        this.splitsDtype = splitsDtype;
    }

    /**
     * A fixed dense key without a default, or whose default has no elements (shape {@code [0]}).
     */
    public boolean required() {
        return defaultValue == null || defaultValue.size() == 0;
    }

    public boolean isDense() {
        return kind == Kind.DENSE_FIXED || kind == Kind.DENSE_VARLEN;
    }
}
