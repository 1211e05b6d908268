package io.tfstream.spec.diff;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One change of feature {@code f}, the kind the diff must report and its verdict. */
record DiffCase(
        String name,
        FeatureSpecs oldSpec,
        FeatureSpecs newSpec,
        SpecChange.Kind kind,
        boolean breaking) {

    @Override
    public String toString() {
        return name;
    }

    /** Feature {@code f} beside an unchanged {@code other} (a spec may not be empty). */
    static FeatureSpecs one(FeatureSpec f) {
        return FeatureSpecs.of(Map.of("f", f, "other", OTHER));
    }

    private static final FeatureSpec OTHER = new VarLenFeature(DType.FLOAT32);

    /** Every case in both directions (a reversed case is named with a leading {@code ~}). */
    static List<DiffCase> all() {
        List<DiffCase> out = new ArrayList<>();
        FeatureSpec required2 = FixedLenFeature.required(List.of(2L), DType.INT64);
        FeatureSpec default2 =
                FixedLenFeature.withDefault(List.of(2L), DType.INT64, DefaultValue.ofInt64(7, 8));
        FeatureSpec otherDefault2 =
                FixedLenFeature.withDefault(List.of(2L), DType.INT64, DefaultValue.ofInt64(0, 0));
        FeatureSpec varLen = new VarLenFeature(DType.INT64);
        FeatureSpecs none = FeatureSpecs.of(Map.of("other", OTHER));
        // added / removed
        both(
                out,
                "required feature",
                none,
                one(required2),
                SpecChange.Kind.ADDED,
                true,
                SpecChange.Kind.REMOVED,
                false);
        both(
                out,
                "var_len feature",
                none,
                one(varLen),
                SpecChange.Kind.ADDED,
                false,
                SpecChange.Kind.REMOVED,
                false);
        both(
                out,
                "feature with default",
                none,
                one(default2),
                SpecChange.Kind.ADDED,
                false,
                SpecChange.Kind.REMOVED,
                false);
        // dtype
        both(
                out,
                "fixed_len dtype",
                one(required2),
                one(FixedLenFeature.required(List.of(2L), DType.FLOAT32)),
                SpecChange.Kind.DTYPE,
                true,
                SpecChange.Kind.DTYPE,
                true);
        both(
                out,
                "var_len dtype",
                one(varLen),
                one(new VarLenFeature(DType.STRING)),
                SpecChange.Kind.DTYPE,
                true,
                SpecChange.Kind.DTYPE,
                true);
        // shape
        both(
                out,
                "fixed_len count",
                one(required2),
                one(FixedLenFeature.required(List.of(3L), DType.INT64)),
                SpecChange.Kind.SHAPE,
                true,
                SpecChange.Kind.SHAPE,
                true);
        both(
                out,
                "fixed_len reshape",
                one(FixedLenFeature.required(List.of(4L), DType.INT64)),
                one(FixedLenFeature.required(List.of(2L, 2L), DType.INT64)),
                SpecChange.Kind.SHAPE,
                false,
                SpecChange.Kind.SHAPE,
                false);
        both(
                out,
                "fixed_len_seq step",
                one(seq(2)),
                one(seq(1)),
                SpecChange.Kind.SHAPE,
                false,
                SpecChange.Kind.SHAPE,
                true);
        both(
                out,
                "sparse size",
                one(sparse(List.of("i"), List.of(10L))),
                one(sparse(List.of("i"), List.of(20L))),
                SpecChange.Kind.SHAPE,
                false,
                SpecChange.Kind.SHAPE,
                false);
        both(
                out,
                "ragged outer partition",
                one(
                        ragged(
                                List.of(
                                        new Partition.RowLengths("outer"),
                                        new Partition.RowLengths("inner")))),
                one(ragged(List.of(new Partition.RowLengths("inner")))),
                SpecChange.Kind.SHAPE,
                false,
                SpecChange.Kind.SHAPE,
                false);
        both(
                out,
                "ragged row_lengths to row_splits",
                one(ragged(List.of(new Partition.RowLengths("inner")))),
                one(ragged(List.of(new Partition.RowSplits("inner")))),
                SpecChange.Kind.SHAPE,
                false,
                SpecChange.Kind.SHAPE,
                false);
        both(
                out,
                "ragged partitions",
                one(ragged(List.of())),
                one(ragged(List.of(new Partition.UniformRowLength(2)))),
                SpecChange.Kind.SHAPE,
                true,
                SpecChange.Kind.SHAPE,
                false);
        // default / required
        both(
                out,
                "default",
                one(default2),
                one(otherDefault2),
                SpecChange.Kind.DEFAULT,
                false,
                SpecChange.Kind.DEFAULT,
                false);
        both(
                out,
                "default dropped",
                one(default2),
                one(required2),
                SpecChange.Kind.REQUIRED,
                true,
                SpecChange.Kind.REQUIRED,
                false);
        // kind
        both(
                out,
                "fixed_len to var_len",
                one(required2),
                one(varLen),
                SpecChange.Kind.KIND,
                false,
                SpecChange.Kind.KIND,
                true);
        both(
                out,
                "fixed_len to fixed_len_seq",
                one(required2),
                one(seq(1)),
                SpecChange.Kind.KIND,
                false,
                SpecChange.Kind.KIND,
                true);
        both(
                out,
                "fixed_len[3] to fixed_len_seq[2]",
                one(FixedLenFeature.required(List.of(3L), DType.INT64)),
                one(seq(2)),
                SpecChange.Kind.KIND,
                true,
                SpecChange.Kind.KIND,
                true);
        both(
                out,
                "sparse index keys",
                one(sparse(List.of("i"), List.of(10L))),
                one(sparse(List.of("j"), List.of(10L))),
                SpecChange.Kind.KIND,
                true,
                SpecChange.Kind.KIND,
                true);
        both(
                out,
                "var_len to ragged",
                one(varLen),
                one(ragged(List.of())),
                SpecChange.Kind.KIND,
                false,
                SpecChange.Kind.KIND,
                false);
        both(
                out,
                "row_splits dtype",
                one(ragged(List.of(new Partition.RowLengths("inner")))),
                one(
                        new RaggedFeature(
                                DType.INT64,
                                "f",
                                List.of(new Partition.RowLengths("inner")),
                                RowSplitsDType.INT32)),
                SpecChange.Kind.DTYPE,
                false,
                SpecChange.Kind.DTYPE,
                false);
        return out;
    }

    private static void both(
            List<DiffCase> out,
            String name,
            FeatureSpecs a,
            FeatureSpecs b,
            SpecChange.Kind kind,
            boolean breaking,
            SpecChange.Kind backKind,
            boolean backBreaking) {
        out.add(new DiffCase(name, a, b, kind, breaking));
        out.add(new DiffCase("~" + name, b, a, backKind, backBreaking));
    }

    private static FeatureSpec seq(long step) {
        return new FixedLenSequenceFeature(List.of(step), DType.INT64, true, Optional.empty());
    }

    private static FeatureSpec sparse(List<String> indexKeys, List<Long> size) {
        return new SparseFeature(indexKeys, "v", DType.INT64, size, false);
    }

    private static FeatureSpec ragged(List<Partition> partitions) {
        return new RaggedFeature(DType.INT64, "f", partitions, RowSplitsDType.INT64);
    }
}
