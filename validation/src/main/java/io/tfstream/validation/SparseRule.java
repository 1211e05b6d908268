package io.tfstream.validation;

import org.tensorflow.metadata.v0.SparseFeature;

/**
 * A sparse or weighted feature compiled for per-record component checks (TFDV {@code
 * Schema::UpdateSparseFeature} / {@code UpdateWeightedFeature} over the custom statistics of {@code
 * sparse_feature_stats_generator} / {@code weighted_feature_stats_generator}). Components are
 * context rule indices, -1 when the schema does not declare the component feature.
 *
 * @param pathId id of the sparse or weighted feature in {@link ValidationSchema#path(int)}
 * @param weighted a {@code weighted_feature}: {@code indices[0]} is the weight feature
 * @param valueRule the value feature
 * @param indices index features (sparse) or the weight feature (weighted)
 * @param indexNames names of {@code indices}, for descriptions
 */
record SparseRule(
        int pathId,
        FeaturePath path,
        boolean weighted,
        boolean skipped,
        int valueRule,
        int[] indices,
        String[] indexNames) {

    @SuppressWarnings("deprecation")
    static boolean isDeprecated(SparseFeature s) {
        return s.getDeprecated()
                || (s.hasLifecycleStage() && FeatureRule.stageIsDeprecated(s.getLifecycleStage()));
    }
}
