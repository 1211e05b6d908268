package io.tfstream.stats;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.StringDomain;

/**
 * How a schema makes TFDV compute a feature's statistics ({@code StatsOptions(schema=...)}): {@code
 * image_domain} features get bytes statistics instead of string statistics and no top values; int
 * features with a categorical {@code int_domain}, a {@code bool_domain} or a {@code
 * natural_language_domain}, and float features with a categorical {@code float_domain}, get string
 * statistics of their values as text instead of numeric statistics (when the data has the schema's
 * type); a {@code string_domain} marked not categorical gets no sketched top values, one marked
 * categorical keeps values over 1 024 bytes instead of TFDV's placeholder.
 */
@Internal
public enum StatsRole {
    /** No schema, or nothing in it that changes the statistics. */
    PLAIN,
    /** {@code image_domain}: {@code bytes_stats}, type BYTES, no top values. */
    BYTES,
    /** Int values counted as their decimal text ({@code string_stats}, type INT). */
    CATEGORICAL_INT,
    /**
     * Float values counted as text ({@code string_stats}, type FLOAT); needs sketched top values.
     */
    CATEGORICAL_FLOAT,
    /** {@code string_domain.is_categorical: CATEGORICAL_YES}: long values kept as they are. */
    STRING_CATEGORICAL,
    /** {@code string_domain.is_categorical: CATEGORICAL_NO}: no sketched top values or uniques. */
    STRING_NOT_CATEGORICAL;

    /**
     * The role of {@code f}, whose string domain (its own, or the schema's one it names) is {@code
     * domain} (null for none).
     */
    public static StatsRole of(Feature f, StringDomain domain) {
        if (f.hasImageDomain()) {
            return BYTES; // TFDV looks at the domain only, not at the type
        }
        if (f.getType() == FeatureType.INT
                && (f.getIntDomain().getIsCategorical()
                        || f.hasBoolDomain()
                        || f.hasNaturalLanguageDomain())) {
            return CATEGORICAL_INT;
        }
        if (f.getType() == FeatureType.FLOAT && f.getFloatDomain().getIsCategorical()) {
            return CATEGORICAL_FLOAT;
        }
        if (domain != null && (f.hasStringDomain() || f.hasDomain())) {
            return switch (domain.getIsCategorical()) {
                case CATEGORICAL_YES -> STRING_CATEGORICAL;
                case CATEGORICAL_NO -> STRING_NOT_CATEGORICAL;
                default -> PLAIN;
            };
        }
        return PLAIN;
    }

    /**
     * The roles of a schema's features by name, features of a struct domain under {@code
     * <struct>.<name>} (a SequenceExample's feature lists as TFDV's struct path {@code
     * ##SEQUENCE##.<name>} when the schema puts them in a struct of that name); features whose role
     * is {@link #PLAIN} are left out.
     */
    public static Map<String, StatsRole> of(Schema schema) {
        Map<String, StringDomain> domains = new HashMap<>();
        for (StringDomain d : schema.getStringDomainList()) {
            domains.put(d.getName(), d);
        }
        Map<String, StatsRole> roles = new HashMap<>();
        collect(schema.getFeatureList(), "", domains, roles);
        return roles;
    }

    private static void collect(
            Iterable<Feature> features,
            String prefix,
            Map<String, StringDomain> domains,
            Map<String, StatsRole> roles) {
        for (Feature f : features) {
            if (f.getType() == FeatureType.STRUCT) {
                collect(
                        f.getStructDomain().getFeatureList(),
                        prefix + f.getName() + ".",
                        domains,
                        roles);
                continue;
            }
            StringDomain d =
                    f.hasStringDomain()
                            ? f.getStringDomain()
                            : f.hasDomain() ? domains.get(f.getDomain()) : null;
            StatsRole role = of(f, d);
            if (role != PLAIN) {
                roles.put(prefix + f.getName(), role);
            }
        }
    }

    /** Whether values of kind {@code kind} ({@link FeatureAccumulator#INT}...) count as text. */
    boolean numbersAsText(int kind) {
        return (this == CATEGORICAL_INT && kind == FeatureAccumulator.INT)
                || (this == CATEGORICAL_FLOAT && kind == FeatureAccumulator.FLOAT);
    }
}
