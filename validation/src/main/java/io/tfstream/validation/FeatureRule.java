package io.tfstream.validation;

import io.tfstream.stats.ByteKeyTable;
import java.nio.charset.StandardCharsets;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.LifecycleStage;
import org.tensorflow.metadata.v0.StringDomain;

/**
 * One schema feature compiled for validation: the constraints of its TFMD {@code Feature} as plain
 * fields, with TFDV's reading of unset values ({@code has_min()} etc.), its lifecycle ({@code
 * FeatureIsDeprecated}), environment ({@code IsFeatureInEnvironment}) and whether its existence is
 * required ({@code IsExistenceRequired}) already decided.
 */
final class FeatureRule {
    /** Which domain check applies ({@code Feature.domain_info}). */
    enum DomainKind {
        NONE,
        INT,
        FLOAT,
        STRING,
        BOOL,
        OTHER
    }

    final int index;
    final FeaturePath path;
    final Feature proto;
    final FeatureType type;

    /** Deprecated, or skipped as TFDV deprecates a feature without name or type. */
    final boolean skipped;

    final boolean inEnvironment;
    final boolean existenceRequired;

    /** Nest level of the data: 1 for Example and context features, 2 for feature lists. */
    final int nestLevel;

    final boolean imageDomain;

    /** Product of {@code shape.dim.size}; 1 when there is no shape. */
    final long shapeProduct;

    final boolean hasMinCount;
    final long minCount;
    final boolean hasMinFraction;
    final double minFraction;

    final DomainKind domainKind;
    final boolean hasIntMin;
    final long intMin;
    final boolean hasIntMax;
    final long intMax;
    final boolean hasFloatMin;
    final float floatMin;
    final boolean hasFloatMax;
    final float floatMax;
    final boolean disallowNan;
    final boolean disallowInf;

    /** Values of the string domain, or null. */
    final ByteKeyTable stringDomain;

    /** {@code 1 - min_domain_mass}, 0 when unset. */
    final double maxOffDomain;

    final byte[] trueValue;
    final byte[] falseValue;

    final boolean categorical;

    /** What the schema makes of the feature's TFDV statistics. */
    final io.tfstream.stats.StatsRole statsRole;

    final double lInfThreshold;
    final double jsdThreshold;

    FeatureRule(
            int index,
            FeaturePath path,
            Feature f,
            int nestLevel,
            StringDomain resolvedDomain,
            boolean parentInEnvironment,
            String environment,
            java.util.List<String> defaultEnvironments,
            boolean skipped) {
        this.index = index;
        this.path = path;
        this.proto = f;
        this.nestLevel = nestLevel;
        boolean missingType = f.getType() == FeatureType.TYPE_UNKNOWN;
        boolean stringDomainSet = resolvedDomain != null;
        this.type = missingType && stringDomainSet ? FeatureType.BYTES : f.getType();
        this.skipped =
                skipped || isDeprecated(f) || !f.hasName() || (missingType && !stringDomainSet);
        this.inEnvironment =
                parentInEnvironment && inEnvironment(f, environment, defaultEnvironments);
        this.hasMinCount = f.hasPresence() && f.getPresence().hasMinCount();
        this.minCount = f.getPresence().getMinCount();
        this.hasMinFraction = f.hasPresence() && f.getPresence().hasMinFraction();
        this.minFraction = f.getPresence().getMinFraction();
        this.existenceRequired =
                !this.skipped && (minCount > 0 || minFraction > 0) && this.inEnvironment;
        this.imageDomain = f.hasImageDomain();
        long product = 1;
        for (var d : f.getShape().getDimList()) {
            product *= d.getSize();
        }
        this.shapeProduct = product;
        this.domainKind = domainKind(f, stringDomainSet);
        this.hasIntMin = f.getIntDomain().hasMin();
        this.intMin = f.getIntDomain().getMin();
        this.hasIntMax = f.getIntDomain().hasMax();
        this.intMax = f.getIntDomain().getMax();
        this.hasFloatMin = f.getFloatDomain().hasMin();
        this.floatMin = f.getFloatDomain().getMin();
        this.hasFloatMax = f.getFloatDomain().hasMax();
        this.floatMax = f.getFloatDomain().getMax();
        this.disallowNan = f.getFloatDomain().getDisallowNan();
        this.disallowInf = f.getFloatDomain().getDisallowInf();
        if (stringDomainSet) {
            stringDomain = new ByteKeyTable(resolvedDomain.getValueCount());
            for (String v : resolvedDomain.getValueList()) {
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                stringDomain.add(b, 0, b.length, 0);
            }
        } else {
            stringDomain = null;
        }
        this.maxOffDomain =
                f.getDistributionConstraints().hasMinDomainMass()
                        ? 1 - f.getDistributionConstraints().getMinDomainMass()
                        : 0;
        this.trueValue =
                f.getBoolDomain().hasTrueValue()
                        ? f.getBoolDomain().getTrueValue().getBytes(StandardCharsets.UTF_8)
                        : null;
        this.falseValue =
                f.getBoolDomain().hasFalseValue()
                        ? f.getBoolDomain().getFalseValue().getBytes(StandardCharsets.UTF_8)
                        : null;
        this.categorical =
                type == FeatureType.BYTES
                        || f.getIntDomain().getIsCategorical()
                        || f.getFloatDomain().getIsCategorical()
                        || f.hasBoolDomain();
        this.statsRole = io.tfstream.stats.StatsRole.of(f, resolvedDomain);
        this.lInfThreshold =
                f.getDriftComparator().getInfinityNorm().hasThreshold()
                        ? f.getDriftComparator().getInfinityNorm().getThreshold()
                        : Double.NaN;
        this.jsdThreshold =
                f.getDriftComparator().getJensenShannonDivergence().hasThreshold()
                        ? f.getDriftComparator().getJensenShannonDivergence().getThreshold()
                        : Double.NaN;
    }

    /**
     * Per record, an absent feature is an anomaly (difference 1 of
     * docs/validation.md#where-tfstream-differs-from-tfdv: only strict presence).
     */
    boolean requiredPerRecord(boolean tfdvPresence) {
        if (!existenceRequired) {
            return false;
        }
        return tfdvPresence || (hasMinFraction && minFraction >= 1.0) || proto.hasShape();
    }

    boolean hasUniqueConstraints() {
        return proto.hasUniqueConstraints();
    }

    /** The feature's name (last path step). */
    String name() {
        return path.steps().get(path.steps().size() - 1);
    }

    /** {@code FeatureIsDeprecated}: the legacy flag or a non-validated lifecycle stage. */
    static boolean isDeprecated(Feature f) {
        @SuppressWarnings("deprecation")
        boolean legacy = f.getDeprecated();
        return legacy || (f.hasLifecycleStage() && stageIsDeprecated(f.getLifecycleStage()));
    }

    /** {@code LifecycleStageIsDeprecated}. */
    static boolean stageIsDeprecated(LifecycleStage s) {
        switch (s) {
            case PLANNED:
            case ALPHA:
            case DEPRECATED:
            case DEBUG_ONLY:
            case DISABLED:
                return true;
            default:
                return false;
        }
    }

    /** {@code IsFeatureInEnvironment}. */
    static boolean inEnvironment(Feature f, String env, java.util.List<String> defaults) {
        if (env == null) {
            return true;
        }
        if (f.getInEnvironmentList().contains(env)) {
            return true;
        }
        if (f.getNotInEnvironmentList().contains(env)) {
            return false;
        }
        return defaults.contains(env);
    }

    private static DomainKind domainKind(Feature f, boolean stringDomainSet) {
        if (stringDomainSet) {
            return DomainKind.STRING;
        }
        switch (f.getDomainInfoCase()) {
            case INT_DOMAIN:
                return DomainKind.INT;
            case FLOAT_DOMAIN:
                return DomainKind.FLOAT;
            case BOOL_DOMAIN:
                return DomainKind.BOOL;
            case DOMAININFO_NOT_SET:
            case DOMAIN: // a reference that did not resolve
                return DomainKind.NONE;
            default:
                return DomainKind.OTHER;
        }
    }
}
