package io.tfstream.spec.diff;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.Shapes;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.spec.json.SpecJsonWriter;
import java.util.List;
import java.util.Map;

/** The changes between two specs of one feature name, each marked breaking or not. */
final class FeatureDiff {
    private final String section;
    private final String name;
    private final List<SpecChange> out;

    private FeatureDiff(String section, String name, List<SpecChange> out) {
        this.section = section;
        this.name = name;
        this.out = out;
    }

    /** Appends to {@code out} what differs between {@code o} and {@code n} (not equal). */
    static void compare(
            String section, String name, FeatureSpec o, FeatureSpec n, List<SpecChange> out) {
        FeatureDiff d = new FeatureDiff(section, name, out);
        if (o.getClass() != n.getClass()) {
            d.kindChange(o, n);
            return;
        }
        if (o.dtype() != n.dtype()) {
            d.add(
                    SpecChange.Kind.DTYPE,
                    quoted(o.dtype().jsonName()),
                    quoted(n.dtype().jsonName()),
                    true,
                    "records with "
                            + o.dtype().listName()
                            + " values are refused (the data types don't match)");
        }
        if (o instanceof FixedLenFeature f) {
            d.fixedLen(f, (FixedLenFeature) n);
        } else if (o instanceof FixedLenSequenceFeature f) {
            d.fixedLenSequence(f, (FixedLenSequenceFeature) n);
        } else if (o instanceof SparseFeature s) {
            d.sparse(s, (SparseFeature) n);
        } else if (o instanceof RaggedFeature r) {
            d.ragged(r, (RaggedFeature) n);
        }
        // VarLenFeature has nothing but its dtype.
    }

    private void fixedLen(FixedLenFeature o, FixedLenFeature n) {
        if (!o.shape().equals(n.shape())) {
            boolean breaking = o.numElements() != n.numElements();
            add(
                    SpecChange.Kind.SHAPE,
                    shape(o.shape()),
                    shape(n.shape()),
                    breaking,
                    breaking
                            ? "records with "
                                    + o.numElements()
                                    + " values are refused: the new shape needs "
                                    + n.numElements()
                            : "the same number of values ("
                                    + n.numElements()
                                    + "); only the tensor's shape changes");
        }
        defaults(o, n, o.defaultValue().isPresent(), n.defaultValue().isPresent());
    }

    private void fixedLenSequence(FixedLenSequenceFeature o, FixedLenSequenceFeature n) {
        if (!o.shape().equals(n.shape())) {
            boolean ok = FeatureRules.stepAccepts(n.stepElements(), o.stepElements());
            add(
                    SpecChange.Kind.SHAPE,
                    shape(o.shape()),
                    shape(n.shape()),
                    !ok,
                    ok
                            ? "every multiple of "
                                    + o.stepElements()
                                    + " values is a multiple of "
                                    + n.stepElements()
                            : "records with "
                                    + o.stepElements()
                                    + " values per step are refused: not a multiple of "
                                    + n.stepElements());
        }
        if (o.allowMissing() != n.allowMissing()) {
            boolean breaking = !n.allowMissing() && "feature_lists".equals(section);
            add(
                    SpecChange.Kind.REQUIRED,
                    String.valueOf(!o.allowMissing()),
                    String.valueOf(!n.allowMissing()),
                    breaking,
                    breaking
                            ? "records without the feature list are refused (allow_missing is"
                                    + " false)"
                            : "records without it still parse");
        }
        if (!o.defaultValue().equals(n.defaultValue())) {
            add(
                    SpecChange.Kind.DEFAULT,
                    SpecJsonWriter.writeDefault(o),
                    SpecJsonWriter.writeDefault(n),
                    false,
                    "only the padding value changes");
        }
    }

    private void defaults(FeatureSpec o, FeatureSpec n, boolean oldHas, boolean newHas) {
        String oldDefault = SpecJsonWriter.writeDefault(o);
        String newDefault = SpecJsonWriter.writeDefault(n);
        if (oldHas && !newHas) {
            add(
                    SpecChange.Kind.REQUIRED,
                    "false",
                    "true",
                    true,
                    "the default "
                            + oldDefault
                            + " is gone: records without the feature are"
                            + " refused");
        } else if (!oldHas && newHas) {
            add(
                    SpecChange.Kind.REQUIRED,
                    "true",
                    "false",
                    false,
                    "records without the feature now get the default " + newDefault);
        } else if (!oldDefault.equals(newDefault)) {
            add(
                    SpecChange.Kind.DEFAULT,
                    oldDefault,
                    newDefault,
                    false,
                    "records without the feature get another value");
        }
    }

    private void sparse(SparseFeature o, SparseFeature n) {
        if (!o.indexKeys().equals(n.indexKeys()) || !o.valueKey().equals(n.valueKey())) {
            add(
                    SpecChange.Kind.KIND,
                    SpecJsonWriter.writeFeature(o),
                    SpecJsonWriter.writeFeature(n),
                    true,
                    "it is built from other features, whose value counts must agree");
        }
        if (!o.size().equals(n.size())) {
            add(
                    SpecChange.Kind.SHAPE,
                    shape(o.size()),
                    shape(n.size()),
                    false,
                    "only dense_shape changes (index ranges are not checked when parsing)");
        }
        if (o.alreadySorted() != n.alreadySorted()) {
            add(
                    SpecChange.Kind.KIND,
                    "{\"already_sorted\":" + o.alreadySorted() + "}",
                    "{\"already_sorted\":" + n.alreadySorted() + "}",
                    false,
                    "only the order of the values in the tensor changes");
        }
    }

    private void ragged(RaggedFeature o, RaggedFeature n) {
        if (!o.valueKey().equals(n.valueKey())) {
            add(
                    SpecChange.Kind.KIND,
                    SpecJsonWriter.writeFeature(o),
                    SpecJsonWriter.writeFeature(n),
                    true,
                    "its values come from another feature");
        }
        if (!o.partitions().equals(n.partitions())) {
            String why = partitionChangeBreaks(o.partitions(), n.partitions());
            add(
                    SpecChange.Kind.SHAPE,
                    SpecJsonWriter.writeFeature(o),
                    SpecJsonWriter.writeFeature(n),
                    why != null,
                    why != null
                            ? why
                            : "other row partitions; they are not validated when parsing"
                                    + " (validate=False, as TFX builds them), so records still"
                                    + " parse and only the tensor's rows differ");
        }
        if (o.rowSplitsDtype() != n.rowSplitsDtype()) {
            add(
                    SpecChange.Kind.DTYPE,
                    quoted(o.rowSplitsDtype().jsonName()),
                    quoted(n.rowSplitsDtype().jsonName()),
                    false,
                    "only the row_splits dtype of the tensor changes");
        }
    }

    /**
     * Why other partitions can refuse a record: a new {@code uniform_row_length} (the values must
     * divide into rows of that length) or, in feature lists, partitions that must align with the
     * steps; null otherwise.
     */
    private String partitionChangeBreaks(List<Partition> o, List<Partition> n) {
        if ("feature_lists".equals(section)) {
            return "in feature lists the partitions must align with the steps of the values";
        }
        for (int i = 0; i < n.size(); i++) {
            Partition p = n.get(n.size() - 1 - i);
            boolean same = i < o.size() && o.get(o.size() - 1 - i).equals(p);
            if (p instanceof Partition.UniformRowLength u && !same) {
                return "a new uniform_row_length of "
                        + u.length()
                        + ": records whose values do not divide into rows of that length are"
                        + " refused";
            }
        }
        return null;
    }

    /** A different kind of spec under the same name. */
    private void kindChange(FeatureSpec o, FeatureSpec n) {
        Map<String, DType> oldKeys = FeatureRules.rawKeys(name, o);
        String why = kindChangeBreaks(o, n, oldKeys);
        add(
                SpecChange.Kind.KIND,
                SpecJsonWriter.writeFeature(o),
                SpecJsonWriter.writeFeature(n),
                why != null,
                why != null
                        ? why
                        : FeatureRules.kindName(o)
                                + " to "
                                + FeatureRules.kindName(n)
                                + ": every record the old spec accepts parses");
    }

    /** Why a record {@code o} accepts can be refused by {@code n}, or null when none can. */
    private String kindChangeBreaks(FeatureSpec o, FeatureSpec n, Map<String, DType> oldKeys) {
        String required = FeatureRules.requiredReason(n, "feature_lists".equals(section));
        if (n instanceof VarLenFeature
                || (n instanceof RaggedFeature r && r.partitions().isEmpty())) {
            String key = n instanceof RaggedFeature r ? r.valueKey() : name;
            DType had = oldKeys.get(key);
            return had == null || had == n.dtype()
                    ? null
                    : "records with " + had.listName() + " values of '" + key + "' are refused";
        }
        if (n instanceof FixedLenSequenceFeature s && required == null) {
            if (o instanceof FixedLenFeature f
                    && f.dtype() == s.dtype()
                    && FeatureRules.stepAccepts(s.stepElements(), f.numElements())) {
                return null;
            }
            return oldKeys.containsKey(name)
                    ? "any number of values was accepted; now only multiples of "
                            + s.stepElements()
                            + " "
                            + s.dtype().listName()
                            + " values"
                    : null;
        }
        if (required != null) {
            return required;
        }
        for (String key : FeatureRules.rawKeys(name, n).keySet()) {
            if (oldKeys.containsKey(key)) {
                return "'"
                        + key
                        + "' is now read as part of a "
                        + FeatureRules.kindName(n)
                        + " feature, with other value-count rules";
            }
        }
        return null;
    }

    private void add(
            SpecChange.Kind kind, String oldJson, String newJson, boolean breaking, String why) {
        out.add(new SpecChange(section, name, kind, oldJson, newJson, breaking, why));
    }

    private static String shape(List<Long> dims) {
        return Shapes.format(dims).replace(" ", "");
    }

    private static String quoted(String s) {
        return '"' + s + '"';
    }
}
