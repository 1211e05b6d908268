package io.tfstream.spec.diff;

import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.json.SpecJsonWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The feature-level differences between two parse specs and whether every record the old spec
 * accepts is still accepted by the new one, by {@code tf.io.parse_example}'s (or {@code
 * parse_sequence_example}'s) rules: a new required feature, a dtype change or a change of the value
 * count a feature must have breaks; a removed feature, a new default or a new optional feature does
 * not. Features a spec does not read are assumed absent from the records (a record carrying an
 * unread feature of another type than a new spec expects is not foreseen).
 */
public final class SpecDiff {
    private final List<SpecChange> changes;

    private SpecDiff(List<SpecChange> changes) {
        this.changes = List.copyOf(changes);
    }

    /** Compares {@code oldSpec} with {@code newSpec}; changes are in section, then name order. */
    public static SpecDiff of(ParseSpec oldSpec, ParseSpec newSpec) {
        List<SpecChange> out = new ArrayList<>();
        if (oldSpec.isSequence() != newSpec.isSequence()) {
            out.add(
                    new SpecChange(
                            null,
                            null,
                            SpecChange.Kind.KIND,
                            quoted(kindOf(oldSpec)),
                            quoted(kindOf(newSpec)),
                            true,
                            "the records change from "
                                    + kindOf(oldSpec)
                                    + " to "
                                    + kindOf(newSpec)
                                    + " data; none of the old records parse"));
        } else if (oldSpec instanceof SequenceFeatureSpecs o) {
            SequenceFeatureSpecs n = (SequenceFeatureSpecs) newSpec;
            compareDicts("context", o.context(), n.context(), out);
            compareDicts("feature_lists", o.featureLists(), n.featureLists(), out);
        } else {
            compareDicts(null, (FeatureSpecs) oldSpec, (FeatureSpecs) newSpec, out);
        }
        return new SpecDiff(out);
    }

    /** Every change found, in section, then feature name order. */
    public List<SpecChange> changes() {
        return changes;
    }

    /** True when no change is breaking. */
    public boolean compatible() {
        return changes.stream().noneMatch(SpecChange::breaking);
    }

    /** The breaking changes only. */
    public List<SpecChange> breakingChanges() {
        return changes.stream().filter(SpecChange::breaking).toList();
    }

    private static void compareDicts(
            String section, FeatureSpecs oldDict, FeatureSpecs newDict, List<SpecChange> out) {
        TreeSet<String> names = new TreeSet<>(oldDict.features().comparator());
        names.addAll(oldDict.features().keySet());
        names.addAll(newDict.features().keySet());
        boolean featureList = "feature_lists".equals(section);
        for (String name : names) {
            FeatureSpec o = oldDict.get(name);
            FeatureSpec n = newDict.get(name);
            if (o == null) {
                out.add(added(section, name, n, featureList));
            } else if (n == null) {
                out.add(
                        new SpecChange(
                                section,
                                name,
                                SpecChange.Kind.REMOVED,
                                SpecJsonWriter.writeFeature(o),
                                "null",
                                false,
                                "the parser no longer reads it; records that carry it still"
                                        + " parse"));
            } else if (!o.equals(n)) {
                FeatureDiff.compare(section, name, o, n, out);
            }
        }
    }

    private static SpecChange added(
            String section, String name, FeatureSpec spec, boolean featureList) {
        String why = FeatureRules.requiredReason(spec, featureList);
        return new SpecChange(
                section,
                name,
                SpecChange.Kind.ADDED,
                "null",
                SpecJsonWriter.writeFeature(spec),
                why != null,
                why != null
                        ? "a new required feature: " + why
                        : "optional: records without it parse ("
                                + FeatureRules.absentBehaviour(spec)
                                + ")");
    }

    private static String kindOf(ParseSpec spec) {
        return spec.isSequence() ? "SequenceExample" : "Example";
    }

    private static String quoted(String s) {
        return '"' + s + '"';
    }

    @Override
    public String toString() {
        return changes.toString();
    }
}
