package io.tfstream.spec.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FixedShape;
import org.tensorflow.metadata.v0.IntDomain;
import org.tensorflow.metadata.v0.SparseFeature;
import org.tensorflow.metadata.v0.TensorRepresentation;

/**
 * tfx-bsl's {@code _InferSparseTensorRepresentationsFromSchema} for one {@code sparse_feature}:
 * consumes its index and value columns and sizes each dimension from the index feature's inline
 * {@code int_domain} ({@code max + 1}, {@code min} must be 0), or {@code -1} without one.
 */
final class SparseInference {
    private SparseInference() {}

    static TensorRepresentation infer(SparseFeature sf, Map<String, Feature> remaining) {
        String name = sf.getName();
        List<String> indexKeys = new ArrayList<>();
        List<Feature> indexFeatures = new ArrayList<>();
        for (SparseFeature.IndexFeature i : sf.getIndexFeatureList()) {
            Feature f = remaining.remove(i.getName());
            if (f == null) {
                throw SchemaRejectedException.naming(
                        name,
                        "sparse_feature "
                                + name
                                + " referred to index feature "
                                + i.getName()
                                + " which did not exist in the schema");
            }
            indexKeys.add(i.getName());
            indexFeatures.add(f);
        }
        String valueKey = sf.getValueFeature().getName();
        if (!remaining.containsKey(valueKey)) {
            throw SchemaRejectedException.naming(
                    name,
                    "sparse_feature "
                            + name
                            + " referred to value feature "
                            + valueKey
                            + " which did not exist in the schema or was referred to as an"
                            + " index or value multiple times.");
        }
        remaining.remove(valueKey);
        FixedShape.Builder shape = FixedShape.newBuilder();
        for (int k = 0; k < indexFeatures.size(); k++) {
            shape.addDim(FixedShape.Dim.newBuilder().setSize(size(sf, indexFeatures.get(k))));
        }
        TensorRepresentation.SparseTensor.Builder st =
                TensorRepresentation.SparseTensor.newBuilder()
                        .setDenseShape(shape)
                        .addAllIndexColumnNames(indexKeys)
                        .setValueColumnName(valueKey);
        if (sf.getIsSorted()) {
            st.setAlreadySorted(true);
        }
        return TensorRepresentation.newBuilder().setSparseTensor(st).build();
    }

    private static long size(SparseFeature sf, Feature index) {
        if (!index.hasIntDomain()) {
            return -1;
        }
        IntDomain d = index.getIntDomain();
        String prefix = "Cannot determine dense shape of sparse feature " + sf.getName() + ". ";
        if (!d.hasMin()) {
            throw SchemaRejectedException.naming(
                    sf.getName(),
                    prefix
                            + "The minimum domain value of index feature "
                            + index.getName()
                            + " is not set.");
        }
        if (d.getMin() != 0) {
            throw SchemaRejectedException.naming(
                    sf.getName(),
                    "Only 0-based index features are supported. Sparse feature "
                            + sf.getName()
                            + " has index feature "
                            + index.getName()
                            + " whose minimum domain value is "
                            + d.getMin()
                            + ".");
        }
        if (!d.hasMax()) {
            throw SchemaRejectedException.naming(
                    sf.getName(),
                    prefix
                            + "The maximum domain value of index feature "
                            + index.getName()
                            + " is not set.");
        }
        if (d.getMax() == Long.MAX_VALUE) {
            throw SchemaRejectedException.naming(
                    sf.getName(),
                    "Sparse feature "
                            + sf.getName()
                            + " has index feature "
                            + index.getName()
                            + " whose maximum domain value "
                            + d.getMax()
                            + " + 1 does not fit an int64 dense shape.");
        }
        return d.getMax() + 1;
    }
}
