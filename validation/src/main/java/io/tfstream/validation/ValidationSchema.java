package io.tfstream.validation;

import io.tfstream.spec.SchemaFingerprint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.Path;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.SparseFeature;
import org.tensorflow.metadata.v0.StringDomain;
import org.tensorflow.metadata.v0.WeightedFeature;

/**
 * A TFMD schema compiled once for validation in one environment: a {@link FeatureRule} per feature
 * that records can hold (top-level features, and for {@code SequenceExample} the children of the
 * {@value #SEQUENCE_FEATURE} STRUCT, tfx-bsl's name for the feature lists), a {@link SparseRule}
 * per sparse and weighted feature, and the schema lint findings (tier S,
 * docs/validation.md#validation-tiers). Immutable and shareable between threads; build it in the
 * operator's {@code open()} from the schema bytes.
 *
 * <p>Path ids: rule {@code i} has path id {@code i}; sparse and weighted features follow.
 */
public final class ValidationSchema {
    /** tfx-bsl's STRUCT column holding a SequenceExample's feature lists. */
    public static final String SEQUENCE_FEATURE = "##SEQUENCE##";

    private final Schema schema;
    private final ValidationOptions options;
    private final String fingerprint;
    private final List<LintFinding> lint;
    private final FeatureRule[] rules;
    private final int contextCount;
    private final List<String> contextNames;
    private final List<String> listNames;
    private final FeatureRule sequenceStruct;
    private final SparseRule[] composites;
    private final FeaturePath[] paths;

    /** The rule of the statistics' weight feature, or -1 (no weighted statistics). */
    private final int weightRule;

    private ValidationSchema(Schema schema, ValidationOptions options) {
        SchemaLint.checkFatal(schema, options.environment());
        this.schema = schema;
        this.options = options;
        this.fingerprint = SchemaFingerprint.of(schema);
        Map<String, StringDomain> domains = new LinkedHashMap<>();
        for (StringDomain d : schema.getStringDomainList()) {
            domains.put(d.getName(), d);
        }
        this.lint = List.copyOf(SchemaLint.findings(schema, domains));
        String env = options.environment();
        List<String> defaults = schema.getDefaultEnvironmentList();
        List<FeatureRule> all = new ArrayList<>();
        List<String> ctx = new ArrayList<>();
        FeatureRule seq = null;
        for (Feature f : schema.getFeatureList()) {
            FeatureRule r =
                    new FeatureRule(
                            all.size(),
                            FeaturePath.of(f.getName()),
                            f,
                            1,
                            stringDomain(f, domains),
                            true,
                            env,
                            defaults,
                            false);
            all.add(r);
            ctx.add(f.getName());
            if (f.getName().equals(SEQUENCE_FEATURE) && f.getType() == FeatureType.STRUCT) {
                seq = r;
            }
        }
        this.contextCount = all.size();
        List<String> lists = new ArrayList<>();
        if (seq != null) {
            for (Feature f : seq.proto.getStructDomain().getFeatureList()) {
                all.add(
                        new FeatureRule(
                                all.size(),
                                seq.path.child(f.getName()),
                                f,
                                2,
                                stringDomain(f, domains),
                                seq.inEnvironment,
                                env,
                                defaults,
                                seq.skipped));
                lists.add(f.getName());
            }
        }
        this.sequenceStruct = seq;
        this.rules = all.toArray(new FeatureRule[0]);
        this.contextNames = Collections.unmodifiableList(ctx);
        this.listNames = Collections.unmodifiableList(lists);
        List<SparseRule> comps = new ArrayList<>();
        for (SparseFeature s : schema.getSparseFeatureList()) {
            String[] names = new String[s.getIndexFeatureCount()];
            int[] idx = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                names[i] = s.getIndexFeature(i).getName();
                idx[i] = ctx.indexOf(names[i]);
            }
            comps.add(
                    new SparseRule(
                            rules.length + comps.size(),
                            FeaturePath.of(s.getName()),
                            false,
                            SparseRule.isDeprecated(s),
                            ctx.indexOf(s.getValueFeature().getName()),
                            idx,
                            names));
        }
        for (WeightedFeature w : schema.getWeightedFeatureList()) {
            String weight = first(w.getWeightFeature());
            comps.add(
                    new SparseRule(
                            rules.length + comps.size(),
                            FeaturePath.of(w.getName()),
                            true,
                            FeatureRule.stageIsDeprecated(w.getLifecycleStage()),
                            ctx.indexOf(first(w.getFeature())),
                            new int[] {ctx.indexOf(weight)},
                            new String[] {weight}));
        }
        this.composites = comps.toArray(new SparseRule[0]);
        this.weightRule = weightRule(options);
        this.paths = new FeaturePath[rules.length + composites.length];
        for (FeatureRule r : rules) {
            paths[r.index] = r.path;
        }
        for (SparseRule s : composites) {
            paths[s.pathId()] = s.path();
        }
    }

    /**
     * Compiles {@code schema}; throws {@link SchemaLintException} when it cannot be validated
     * against (then nothing else is checked), otherwise {@link #lintFindings()} lists its problems.
     */
    public static ValidationSchema build(Schema schema, ValidationOptions options) {
        return new ValidationSchema(schema, options);
    }

    /**
     * The top-level INT or FLOAT feature weighting the statistics ({@link
     * ValidationOptions#statisticsWeightFeature()}), -1 for none.
     *
     * @throws IllegalArgumentException when the schema has no such feature
     */
    private int weightRule(ValidationOptions o) {
        String name = o.statistics() == null ? null : o.statisticsWeightFeature();
        if (name == null) {
            return -1;
        }
        for (FeatureRule r : rules) {
            if (r.nestLevel == 1
                    && r.path.steps().size() == 1
                    && r.name().equals(name)
                    && !r.skipped
                    && (r.type == org.tensorflow.metadata.v0.FeatureType.INT
                            || r.type == org.tensorflow.metadata.v0.FeatureType.FLOAT)) {
                return r.index;
            }
        }
        throw new IllegalArgumentException(
                "the statistics' weight feature '"
                        + name
                        + "' is no INT or FLOAT feature of the schema (TFDV's weight_feature"
                        + " holds one number per record)");
    }

    /** The rule index of the statistics' weight feature, -1 for none. */
    int weightRule() {
        return weightRule;
    }

    public Schema schema() {
        return schema;
    }

    public ValidationOptions options() {
        return options;
    }

    /** {@link SchemaFingerprint#of(Schema)}. */
    public String fingerprint() {
        return fingerprint;
    }

    /** Tier S findings, in schema order. */
    public List<LintFinding> lintFindings() {
        return lint;
    }

    /** Number of path ids: features, then sparse and weighted features. */
    public int pathCount() {
        return paths.length;
    }

    public FeaturePath path(int id) {
        return paths[id];
    }

    FeatureRule[] rules() {
        return rules;
    }

    FeatureRule rule(int i) {
        return rules[i];
    }

    int contextCount() {
        return contextCount;
    }

    List<String> contextNames() {
        return contextNames;
    }

    List<String> listNames() {
        return listNames;
    }

    FeatureRule sequenceStruct() {
        return sequenceStruct;
    }

    /** The sparse or weighted feature with path id {@code pathId}. */
    SparseRule composite(int pathId) {
        return composites[pathId - rules.length];
    }

    SparseRule[] composites() {
        return composites;
    }

    private static String first(Path p) {
        return p.getStepCount() == 0 ? "" : p.getStep(0);
    }

    private static StringDomain stringDomain(Feature f, Map<String, StringDomain> domains) {
        if (f.hasStringDomain()) {
            return f.getStringDomain();
        }
        return f.hasDomain() ? domains.get(f.getDomain()) : null;
    }
}
