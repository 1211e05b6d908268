package io.tfstream.spec.schema;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.FixedShape;
import org.tensorflow.metadata.v0.TensorRepresentation;

/**
 * One {@code TensorRepresentation} to one feature spec, as tfx-bsl's {@code
 * CreateTfExampleParserConfig(tensor_representation, feature_type)}: dense → FixedLen (the default
 * repeated {@code prod(shape)} times), varlen → VarLen, sparse → Sparse, ragged → Ragged with
 * RowLengths / UniformRowLength partitions and int64 row splits unless the representation says
 * INT32.
 */
public final class ParserConfigFromTensorRepresentation {
    /** Most values a dense default may expand to ({@code prod(shape)}). */
    public static final int MAX_DEFAULT_VALUES = 1 << 20;

    private ParserConfigFromTensorRepresentation() {}

    /**
     * Creates the spec for the tensor {@code name}, whose value column has type {@code type}.
     *
     * @throws SchemaRejectedException with tfx-bsl's message when it raises
     */
    public static FeatureSpec create(
            String name, TensorRepresentation tr, FeatureType type, FixedLenDefaults defaults) {
        DType dtype = dtype(type);
        if (dtype == null) {
            throw SchemaRejectedException.of(
                    name, "The feature_type: " + type.getNumber() + " is not supported.");
        }
        try {
            switch (tr.getKindCase()) {
                case DENSE_TENSOR:
                    return dense(name, tr.getDenseTensor(), type, dtype, defaults);
                case VARLEN_SPARSE_TENSOR:
                    return new VarLenFeature(dtype);
                case SPARSE_TENSOR:
                    TensorRepresentation.SparseTensor st = tr.getSparseTensor();
                    return new SparseFeature(
                            st.getIndexColumnNamesList(),
                            st.getValueColumnName(),
                            dtype,
                            dims(st.getDenseShape()),
                            st.getAlreadySorted());
                case RAGGED_TENSOR:
                    return ragged(name, tr.getRaggedTensor(), dtype);
                default:
                    throw SchemaRejectedException.of(
                            name, "TensorRepresentation: None is not supported.");
            }
        } catch (IllegalArgumentException e) {
            throw SchemaRejectedException.of(name, e.getMessage());
        }
    }

    static DType dtype(FeatureType type) {
        switch (type) {
            case BYTES:
                return DType.STRING;
            case INT:
                return DType.INT64;
            case FLOAT:
                return DType.FLOAT32;
            default:
                return null;
        }
    }

    private static FeatureSpec dense(
            String name,
            TensorRepresentation.DenseTensor d,
            FeatureType type,
            DType dtype,
            FixedLenDefaults defaults) {
        List<Long> shape = dims(d.getShape());
        Optional<DefaultValue> one = Optional.empty();
        if (d.hasDefaultValue()) {
            one = Optional.of(explicitDefault(name, d.getDefaultValue(), type, dtype));
        } else if (defaults == FixedLenDefaults.LEGACY) {
            one = Optional.of(legacyDefault(dtype));
        }
        if (one.isEmpty() || shape.stream().anyMatch(x -> x < 0)) {
            // A negative dimension is refused by the FixedLenFeature constructor.
            return new FixedLenFeature(shape, dtype, Optional.empty());
        }
        long n = 1;
        for (long dim : shape) {
            n *= dim;
            if (n > MAX_DEFAULT_VALUES) {
                throw SchemaRejectedException.of(
                        name,
                        "default_value would be repeated to prod(shape) of "
                                + shape
                                + ", more than "
                                + MAX_DEFAULT_VALUES
                                + " values");
            }
        }
        return new FixedLenFeature(shape, dtype, Optional.of(one.get().repeat((int) n)));
    }

    private static DefaultValue explicitDefault(
            String name, TensorRepresentation.DefaultValue v, FeatureType type, DType dtype) {
        String shown;
        FeatureType expected;
        switch (v.getKindCase()) {
            case FLOAT_VALUE:
                shown = PyRepr.ofDouble(v.getFloatValue());
                expected = FeatureType.FLOAT;
                break;
            case INT_VALUE:
                shown = Long.toString(v.getIntValue());
                expected = FeatureType.INT;
                break;
            case BYTES_VALUE:
                shown = PyRepr.ofBytes(v.getBytesValue().toByteArray());
                expected = FeatureType.BYTES;
                break;
            case UINT_VALUE:
                shown = Long.toUnsignedString(v.getUintValue());
                expected = null;
                break;
            default:
                throw SchemaRejectedException.of(
                        name, "dense_tensor.default_value is set but holds no value");
        }
        if (type != expected) {
            throw SchemaRejectedException.of(
                    name,
                    "FeatureType: "
                            + type.name()
                            + " is incompatible with default_value: "
                            + shown);
        }
        switch (dtype) {
            case INT64:
                return DefaultValue.ofInt64(v.getIntValue());
            case FLOAT32:
                return DefaultValue.ofFloat32((float) v.getFloatValue());
            default:
                return DefaultValue.ofBytes(v.getBytesValue().toByteArray());
        }
    }

    private static DefaultValue legacyDefault(DType dtype) {
        switch (dtype) {
            case INT64:
                return DefaultValue.ofInt64(-1L);
            case FLOAT32:
                return DefaultValue.ofFloat32(-1.0f);
            default:
                return DefaultValue.ofBytes(new byte[0]);
        }
    }

    private static FeatureSpec ragged(
            String name, TensorRepresentation.RaggedTensor r, DType dtype) {
        RowSplitsDType splits =
                r.getRowPartitionDtype() == TensorRepresentation.RowPartitionDType.INT32
                        ? RowSplitsDType.INT32
                        : RowSplitsDType.INT64;
        if (r.getFeaturePath().getStepCount() > 1) {
            throw SchemaRejectedException.of(
                    name,
                    "Parsing spec from a RaggedTensor with multiple steps in feature_path is not"
                            + " implemented.");
        }
        if (r.getFeaturePath().getStepCount() == 0) {
            throw SchemaRejectedException.of(
                    name, "RaggedTensor representation with empty feature_path.");
        }
        List<Partition> partitions = new ArrayList<>();
        for (TensorRepresentation.RaggedTensor.Partition p : r.getPartitionList()) {
            if (p.hasUniformRowLength()) {
                partitions.add(new Partition.UniformRowLength(p.getUniformRowLength()));
            } else if (p.hasRowLength()) {
                partitions.add(new Partition.RowLengths(p.getRowLength()));
            } else {
                throw SchemaRejectedException.of(
                        name, "RaggedTensor partition type not implemented: None.");
            }
        }
        return new RaggedFeature(dtype, r.getFeaturePath().getStep(0), partitions, splits);
    }

    private static List<Long> dims(FixedShape shape) {
        List<Long> dims = new ArrayList<>(shape.getDimCount());
        for (FixedShape.Dim d : shape.getDimList()) {
            dims.add(d.getSize());
        }
        return dims;
    }
}
