package io.tfstream.spec.json;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.FixedShape;
import org.tensorflow.metadata.v0.IntDomain;
import org.tensorflow.metadata.v0.LifecycleStage;
import org.tensorflow.metadata.v0.Path;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.SparseFeature;
import org.tensorflow.metadata.v0.StructDomain;
import org.tensorflow.metadata.v0.TensorRepresentation;
import org.tensorflow.metadata.v0.TensorRepresentationGroup;

/**
 * Random schemas that tfx-bsl / tensorflow_transform accept: fixed-shape and variable-length
 * features of every type and lifecycle stage, sparse features, explicit dense / varlen / sparse /
 * ragged representations with defaults and partitions, and SequenceExample schemas.
 */
final class RandomSchemas {
    private static final FeatureType[] TYPES = {
        FeatureType.INT, FeatureType.FLOAT, FeatureType.BYTES
    };
    private static final String[] NAMES = {"f", "x.y", "é", "ключ", "#", "a b", "日本"};

    private final Random r;
    private int counter;

    RandomSchemas(Random r) {
        this.r = r;
    }

    Schema next() {
        return r.nextInt(4) == 0 ? sequence() : example();
    }

    private String name() {
        return NAMES[r.nextInt(NAMES.length)] + (counter++);
    }

    private Feature.Builder feature(String name, FeatureType type) {
        Feature.Builder f = Feature.newBuilder().setName(name).setType(type);
        int stage = r.nextInt(10);
        if (stage < 4) {
            f.setLifecycleStage(LifecycleStage.forNumber(stage == 3 ? 5 : stage * 2));
        }
        return f;
    }

    private Schema example() {
        Schema.Builder s = Schema.newBuilder();
        s.setRepresentVariableLengthAsRagged(r.nextBoolean());
        List<Feature> intFeatures = new ArrayList<>();
        int n = r.nextInt(6);
        for (int i = 0; i < n; i++) {
            FeatureType type = TYPES[r.nextInt(3)];
            Feature.Builder f = feature(name(), type);
            if (r.nextBoolean()) {
                f.setShape(shape(3, 4));
                f.getPresenceBuilder().setMinFraction(1.0);
            }
            s.addFeature(f);
            if (type == FeatureType.INT) {
                intFeatures.add(f.build());
            }
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            SparseFeature.Builder sf = SparseFeature.newBuilder().setName(name());
            for (int k = r.nextInt(3); k > 0; k--) {
                Feature.Builder index =
                        Feature.newBuilder().setName(name()).setType(FeatureType.INT);
                if (r.nextBoolean()) {
                    index.setIntDomain(IntDomain.newBuilder().setMin(0).setMax(r.nextInt(100)));
                }
                s.addFeature(index);
                sf.addIndexFeatureBuilder().setName(index.getName());
            }
            Feature value = feature(name(), TYPES[r.nextInt(3)]).build();
            s.addFeature(value);
            sf.getValueFeatureBuilder().setName(value.getName());
            sf.setIsSorted(r.nextBoolean());
            s.addSparseFeature(sf);
        }
        if (r.nextBoolean()) {
            TensorRepresentationGroup.Builder g = TensorRepresentationGroup.newBuilder();
            for (int i = r.nextInt(4); i > 0; i--) {
                FeatureType type = TYPES[r.nextInt(3)];
                Feature value = feature(name(), type).build();
                s.addFeature(value);
                g.putTensorRepresentation(name(), explicit(value, intFeatures, true));
            }
            s.putTensorRepresentationGroup("", g.build());
        }
        return s.build();
    }

    private Schema sequence() {
        Schema.Builder s = Schema.newBuilder();
        TensorRepresentationGroup.Builder g = TensorRepresentationGroup.newBuilder();
        List<Feature> contextInts = new ArrayList<>();
        for (int i = r.nextInt(3); i > 0; i--) {
            Feature f = feature(name(), TYPES[r.nextInt(3)]).build();
            s.addFeature(f);
            if (f.getType() == FeatureType.INT) {
                contextInts.add(f);
            }
            g.putTensorRepresentation(
                    r.nextBoolean() ? f.getName() : name(), explicit(f, contextInts, false));
        }
        StructDomain.Builder children = StructDomain.newBuilder();
        for (int i = r.nextInt(3); i >= 0; i--) {
            Feature child = feature(name(), TYPES[r.nextInt(3)]).build();
            children.addFeature(child);
            g.putTensorRepresentation(
                    child.getName(), ragged(List.of("##SEQUENCE##", child.getName()), List.of()));
        }
        s.addFeature(
                Feature.newBuilder()
                        .setName("##SEQUENCE##")
                        .setType(FeatureType.STRUCT)
                        .setStructDomain(children));
        s.putTensorRepresentationGroup("", g.build());
        return s.build();
    }

    private TensorRepresentation explicit(Feature value, List<Feature> ints, boolean sparse) {
        int kind = r.nextInt(4);
        if (kind == 2 && !sparse) {
            kind = 1;
        }
        switch (kind) {
            case 0:
                TensorRepresentation.DenseTensor.Builder d =
                        TensorRepresentation.DenseTensor.newBuilder()
                                .setColumnName(value.getName())
                                .setShape(shape(2, 3));
                if (r.nextBoolean()) {
                    d.setDefaultValue(defaultFor(value.getType()));
                }
                return TensorRepresentation.newBuilder().setDenseTensor(d).build();
            case 1:
                return TensorRepresentation.newBuilder()
                        .setVarlenSparseTensor(
                                TensorRepresentation.VarLenSparseTensor.newBuilder()
                                        .setColumnName(value.getName()))
                        .build();
            case 2:
                TensorRepresentation.SparseTensor.Builder st =
                        TensorRepresentation.SparseTensor.newBuilder()
                                .setValueColumnName(value.getName())
                                .setAlreadySorted(r.nextBoolean());
                FixedShape.Builder shape = FixedShape.newBuilder();
                for (Feature i : ints) {
                    st.addIndexColumnNames(i.getName());
                    shape.addDimBuilder().setSize(r.nextInt(30) - 1);
                }
                return TensorRepresentation.newBuilder()
                        .setSparseTensor(st.setDenseShape(shape))
                        .build();
            default:
                List<String> rowLengths = new ArrayList<>();
                for (Feature i : ints) {
                    rowLengths.add(i.getName());
                }
                return ragged(List.of(value.getName()), rowLengths);
        }
    }

    private TensorRepresentation ragged(List<String> path, List<String> rowLengths) {
        TensorRepresentation.RaggedTensor.Builder b =
                TensorRepresentation.RaggedTensor.newBuilder()
                        .setFeaturePath(Path.newBuilder().addAllStep(path))
                        .setRowPartitionDtype(
                                TensorRepresentation.RowPartitionDType.forNumber(r.nextInt(3)));
        for (String rl : rowLengths) {
            b.addPartitionBuilder().setRowLength(rl);
        }
        if (r.nextBoolean()) {
            b.addPartitionBuilder().setUniformRowLength(r.nextInt(5));
        }
        return TensorRepresentation.newBuilder().setRaggedTensor(b).build();
    }

    private TensorRepresentation.DefaultValue defaultFor(FeatureType type) {
        TensorRepresentation.DefaultValue.Builder v =
                TensorRepresentation.DefaultValue.newBuilder();
        switch (type) {
            case INT:
                long[] ints = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, r.nextLong()};
                return v.setIntValue(ints[r.nextInt(ints.length)]).build();
            case FLOAT:
                double[] floats = {
                    -0.0, 0.1, Double.NaN, Double.NEGATIVE_INFINITY, 1e-45, 3.4e38, r.nextGaussian()
                };
                return v.setFloatValue(floats[r.nextInt(floats.length)]).build();
            default:
                byte[] b = new byte[r.nextInt(5)];
                r.nextBytes(b);
                return v.setBytesValue(
                                r.nextBoolean()
                                        ? ByteString.copyFrom(b)
                                        : ByteString.copyFromUtf8("é"))
                        .build();
        }
    }

    private FixedShape shape(int maxRank, int maxDim) {
        FixedShape.Builder s = FixedShape.newBuilder();
        for (int i = r.nextInt(maxRank + 1); i > 0; i--) {
            s.addDimBuilder().setSize(r.nextInt(maxDim + 1));
        }
        return s.build();
    }
}
