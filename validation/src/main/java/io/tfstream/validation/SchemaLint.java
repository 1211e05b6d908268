package io.tfstream.validation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.SparseFeature;
import org.tensorflow.metadata.v0.StringDomain;
import org.tensorflow.metadata.v0.WeightedFeature;

/**
 * Tier S: the checks TFDV's {@code Schema::UpdateFeatureSelf} (and the name-collision checks of
 * {@code UpdateSparseFeature} / {@code UpdateWeightedFeature}) run on the schema, done once for
 * every non-deprecated feature rather than only for features that occur in the data. Problems that
 * make validation meaningless throw {@link SchemaLintException}; the others are returned.
 */
final class SchemaLint {
    private SchemaLint() {}

    /** Throws for an environment TFDV's Python API rejects, or features with one name. */
    static void checkFatal(Schema schema, String environment) {
        if (environment != null && !schema.getDefaultEnvironmentList().contains(environment)) {
            throw new SchemaLintException(
                    "Environment "
                            + environment
                            + " not found in the schema. Use one of the schema's"
                            + " default_environment values "
                            + schema.getDefaultEnvironmentList()
                            + " or none.");
        }
        checkUniqueNames(schema.getFeatureList(), "");
    }

    private static void checkUniqueNames(List<Feature> features, String prefix) {
        Set<String> names = new HashSet<>();
        for (Feature f : features) {
            if (f.hasName() && !names.add(f.getName())) {
                throw new SchemaLintException(
                        "feature '"
                                + prefix
                                + f.getName()
                                + "' is declared twice; every feature name must be unique");
            }
            if (f.hasStructDomain()) {
                checkUniqueNames(f.getStructDomain().getFeatureList(), prefix + f.getName() + ".");
            }
        }
    }

    /** The non-fatal findings, in schema order. */
    static List<LintFinding> findings(Schema schema, Map<String, StringDomain> stringDomains) {
        List<LintFinding> out = new ArrayList<>();
        features(schema.getFeatureList(), FeaturePath.of(), stringDomains, out);
        Set<String> featureNames = new HashSet<>();
        for (Feature f : schema.getFeatureList()) {
            if (!FeatureRule.isDeprecated(f)) {
                featureNames.add(f.getName());
            }
        }
        Set<String> sparseNames = new HashSet<>();
        for (SparseFeature s : schema.getSparseFeatureList()) {
            if (!SparseRule.isDeprecated(s)) {
                sparseNames.add(s.getName());
                if (featureNames.contains(s.getName())) {
                    out.add(
                            new LintFinding(
                                    FeaturePath.of(s.getName()),
                                    Type.SPARSE_FEATURE_NAME_COLLISION,
                                    "Sparse feature name collision",
                                    "Sparse feature name collision."));
                }
            }
        }
        for (WeightedFeature w : schema.getWeightedFeatureList()) {
            if (!FeatureRule.stageIsDeprecated(w.getLifecycleStage())
                    && (featureNames.contains(w.getName()) || sparseNames.contains(w.getName()))) {
                out.add(
                        new LintFinding(
                                FeaturePath.of(w.getName()),
                                Type.WEIGHTED_FEATURE_NAME_COLLISION,
                                "Weighted feature name collision",
                                "Weighted feature name collision."));
            }
        }
        return out;
    }

    private static void features(
            List<Feature> features,
            FeaturePath parent,
            Map<String, StringDomain> domains,
            List<LintFinding> out) {
        for (Feature f : features) {
            if (FeatureRule.isDeprecated(f)) {
                continue;
            }
            FeaturePath path = parent.child(f.getName());
            feature(f, path, domains, out);
            if (f.hasStructDomain()) {
                features(f.getStructDomain().getFeatureList(), path, domains, out);
            }
        }
    }

    private static void feature(
            Feature f, FeaturePath p, Map<String, StringDomain> domains, List<LintFinding> out) {
        if (!f.hasName()) {
            add(
                    out,
                    p,
                    Type.FEATURE_MISSING_NAME,
                    "unspecified name (maybe meant to be the empty string): find name rather"
                            + " than deprecating.");
            return;
        }
        if (!f.hasType()) {
            if (f.hasDomain() || f.hasStringDomain()) {
                add(
                        out,
                        p,
                        Type.FEATURE_MISSING_TYPE,
                        "unspecified type: inferring the type to be BYTES, given the domain"
                                + " specified.");
            } else {
                add(
                        out,
                        p,
                        Type.FEATURE_MISSING_TYPE,
                        "unspecified type: determine the type and set it, rather than"
                                + " deprecating.");
                return;
            }
        }
        if (f.getPresence().getMinFraction() < 0.0) {
            add(
                    out,
                    p,
                    Type.INVALID_SCHEMA_SPECIFICATION,
                    "min_fraction should not be negative: clear is equal to zero");
        }
        if (f.getPresence().getMinFraction() > 1.0) {
            add(
                    out,
                    p,
                    Type.INVALID_SCHEMA_SPECIFICATION,
                    "min_fraction should not greater than 1");
        }
        if (f.getValueCount().getMin() < 0) {
            add(out, p, Type.INVALID_SCHEMA_SPECIFICATION, "ValueCount.min should not be negative");
        }
        if (f.getValueCount().hasMax() && f.getValueCount().getMax() < f.getValueCount().getMin()) {
            add(
                    out,
                    p,
                    Type.INVALID_SCHEMA_SPECIFICATION,
                    "ValueCount.max should not be less than min");
        }
        for (var dim : f.getShape().getDimList()) {
            if (dim.getSize() <= 0) {
                add(
                        out,
                        p,
                        Type.INVALID_SCHEMA_SPECIFICATION,
                        "Shape dimensions should be positive");
            }
        }
        FeatureType type = f.hasType() ? f.getType() : FeatureType.BYTES;
        if (!DomainTypes.allowed(f.getDomainInfoCase(), type)) {
            out.add(
                    new LintFinding(
                            p,
                            Type.DOMAIN_INVALID_FOR_TYPE,
                            "The domain does not match the type",
                            "The domain \""
                                    + DomainTypes.name(f.getDomainInfoCase())
                                    + "\" does not match the type: "
                                    + type.name()));
        }
        if (f.hasDomain() && !domains.containsKey(f.getDomain())) {
            add(out, p, Type.INVALID_SCHEMA_SPECIFICATION, "missing domain: " + f.getDomain());
        }
        if (f.hasDistributionConstraints() && DomainTypes.distributionConstraintsText(f) != null) {
            add(
                    out,
                    p,
                    Type.INVALID_SCHEMA_SPECIFICATION,
                    DomainTypes.distributionConstraintsText(f));
        }
        if (f.hasBoolDomain()
                && f.getBoolDomain().hasTrueValue()
                && f.getBoolDomain().getTrueValue().equals(f.getBoolDomain().getFalseValue())) {
            add(out, p, Type.INVALID_DOMAIN_SPECIFICATION, "Malformed BoolDomain");
        }
        if (f.hasStringDomain()) {
            Set<String> seen = new HashSet<>();
            for (String v : f.getStringDomain().getValueList()) {
                if (!seen.add(v)) {
                    out.add(
                            new LintFinding(
                                    p,
                                    Type.INVALID_DOMAIN_SPECIFICATION,
                                    "Malformed StringDomain",
                                    "Repeated values in StringDomain:" + v));
                }
            }
        }
        if (f.hasUniqueConstraints()
                && !(type == FeatureType.BYTES
                        || f.getIntDomain().getIsCategorical()
                        || f.getFloatDomain().getIsCategorical())) {
            out.add(
                    new LintFinding(
                            p,
                            Type.FEATURE_TYPE_NO_UNIQUE,
                            "No unique values",
                            "UniqueConstraints specified for the feature, but unique values were"
                                    + " not counted (i.e., feature is not string or"
                                    + " categorical)."));
        }
    }

    private static void add(List<LintFinding> out, FeaturePath p, Type type, String text) {
        out.add(new LintFinding(p, type, text, text));
    }
}
