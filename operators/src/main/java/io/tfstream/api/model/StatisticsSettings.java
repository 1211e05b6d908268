package io.tfstream.api.model;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * How TFDV's feature statistics are computed, wherever they are (validation windows, shard
 * buckets): the quantile sketches' error and an optional weight feature. A class with a builder,
 * not a record, so that a new setting keeps user code compiling and linking.
 */
@PublicEvolving
public final class StatisticsSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** TFDV's epsilon by default. */
    public static final double DEFAULT_EPSILON = 0.01;

    private final double epsilon;
    private final String weightFeature;

    private StatisticsSettings(double epsilon, String weightFeature) {
        this.epsilon = epsilon;
        this.weightFeature = weightFeature;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Epsilon 0.01, no weight feature. */
    public static StatisticsSettings defaults() {
        return builder().build();
    }

    /** Error of the quantile sketches, as a fraction of the values (TFDV's epsilon). */
    public double epsilon() {
        return epsilon;
    }

    /** The feature each record is weighted by (TFDV's {@code weight_feature}), or null. */
    public String weightFeature() {
        return weightFeature;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StatisticsSettings s
                && Double.compare(s.epsilon, epsilon) == 0
                && Objects.equals(s.weightFeature, weightFeature);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epsilon, weightFeature);
    }

    @Override
    public String toString() {
        return "StatisticsSettings{epsilon=" + epsilon + ", weightFeature=" + weightFeature + "}";
    }

    /** Collects the settings; {@link #build()} checks them. */
    @PublicEvolving
    public static final class Builder {
        private double epsilon = DEFAULT_EPSILON;
        private String weightFeature;

        private Builder() {}

        /** Error of the quantile sketches, in (0, 1) (default 0.01, TFDV's). */
        public Builder setEpsilon(double epsilon) {
            this.epsilon = epsilon;
            return this;
        }

        /**
         * Weighted statistics too (default none), each record weighted by {@code feature}'s one INT
         * or FLOAT value (a SequenceExample's context feature); a record without exactly one value
         * weighs 0.
         */
        public Builder setWeightFeature(String feature) {
            this.weightFeature = feature;
            return this;
        }

        /**
         * @throws IllegalArgumentException for an epsilon outside (0, 1) or an empty feature name
         */
        public StatisticsSettings build() {
            if (!(epsilon > 0 && epsilon < 1)) {
                throw new IllegalArgumentException(
                        "statistics: epsilon must be in (0, 1), got " + epsilon);
            }
            if (weightFeature != null && weightFeature.isEmpty()) {
                throw new IllegalArgumentException(
                        "statistics: the weight feature must be a non-empty name");
            }
            return new StatisticsSettings(epsilon, weightFeature);
        }
    }
}
