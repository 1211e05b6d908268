package io.tfstream.stats;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.tensorflow.metadata.v0.BoolDomain;
import org.tensorflow.metadata.v0.CommonStatistics;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.FeaturePresence;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.FixedShape;
import org.tensorflow.metadata.v0.IntDomain;
import org.tensorflow.metadata.v0.PresenceAndValencyStatistics;
import org.tensorflow.metadata.v0.RankHistogram;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.StringDomain;
import org.tensorflow.metadata.v0.StructDomain;
import org.tensorflow.metadata.v0.ValueCount;
import org.tensorflow.metadata.v0.ValueCountList;

/**
 * A TFMD schema from statistics by TFDV's {@code infer_schema} rules (its C++ {@code
 * Schema::Updater::CreateColumn}): features in the order of the statistics; INT, FLOAT, and BYTES
 * for string or bytes statistics; presence {@code min_count} 0 or 1 and {@code min_fraction: 1.0}
 * when never missing; a fixed {@code shape} when always present with one count of values (with
 * shape inference), else {@code value_count} ({@code min == max}, or {@code min: 1} when counts
 * vary, none when some example has no values); domains in TFDV's order of checks: none for bytes
 * statistics or values that are not UTF-8, a {@code bool_domain} (int values 0..1, or the string
 * tokens true/false, 1/0, set/clear), an empty {@code int_domain} for strings that are all
 * integers, a top-level {@code string_domain} named after the feature holding its values in byte
 * order when there are at most {@code maxStringDomainSize} of them. Nested values get one shape
 * dimension or one {@code value_counts} entry per level; STRUCT features are not inferred.
 */
@PublicEvolving
public final class SchemaInference {
    private static final Set<String> TRUE_TOKENS = Set.of("TRUE", "true", "SET", "set", "1", "");
    private static final Set<String> FALSE_TOKENS = Set.of("FALSE", "false", "CLEAR", "clear", "0");
    private static final Pattern PLAIN_STEP = Pattern.compile("(\\([^()]*\\))|([^().']+)");

    private SchemaInference() {}

    /**
     * The schema of {@code stats}.
     *
     * @param inferShape whether always-present features of one value count get a fixed shape
     *     (TFDV's {@code infer_feature_shape}, true by default)
     * @param maxStringDomainSize the most distinct strings a string domain is made of (TFDV's
     *     default 100)
     * @throws IllegalArgumentException for features nested deeper than one STRUCT
     */
    public static Schema infer(
            DatasetFeatureStatistics stats, boolean inferShape, int maxStringDomainSize) {
        Schema.Builder schema = Schema.newBuilder();
        Set<String> domainNames = new HashSet<>();
        List<FeatureNameStatistics> all = new ArrayList<>();
        for (FeatureNameStatistics f : stats.getFeaturesList()) {
            if (common(f) != null) {
                all.add(f); // custom statistics only: TFDV drops these before inferring
            }
        }
        for (FeatureNameStatistics f : all) {
            List<String> path = steps(f);
            if (path.size() > 2) {
                throw new IllegalArgumentException(
                        "feature "
                                + name(f)
                                + ": features nested deeper than one STRUCT are not inferred");
            }
            if (path.size() == 2) {
                continue; // a STRUCT's child: inferred with its parent
            }
            Feature.Builder out =
                    feature(f, path.get(0), inferShape, maxStringDomainSize, schema, domainNames);
            if (f.getType() == FeatureNameStatistics.Type.STRUCT) {
                // its children sorted by name, right after it (TFDV's depth-first order)
                TreeMap<String, FeatureNameStatistics> children = new TreeMap<>();
                for (FeatureNameStatistics c : all) {
                    List<String> p = steps(c);
                    if (p.size() == 2 && p.get(0).equals(path.get(0))) {
                        children.put(p.get(1), c);
                    }
                }
                StructDomain.Builder struct = StructDomain.newBuilder();
                children.forEach(
                        (n, c) ->
                                struct.addFeature(
                                        feature(
                                                c,
                                                n,
                                                inferShape,
                                                maxStringDomainSize,
                                                schema,
                                                domainNames)));
                if (struct.getFeatureCount() > 0) {
                    out.setStructDomain(struct);
                }
            }
            schema.addFeature(out);
        }
        return schema.build();
    }

    /** The schema feature {@code name} of statistics {@code f} (a STRUCT without its children). */
    private static Feature.Builder feature(
            FeatureNameStatistics f,
            String name,
            boolean inferShape,
            int maxStringDomainSize,
            Schema.Builder schema,
            Set<String> domainNames) {
        Feature.Builder out = Feature.newBuilder().setName(name).setType(type(f.getType()));
        // a STRUCT gets value counts, never a shape
        presenceAndShape(
                common(f), inferShape && f.getType() != FeatureNameStatistics.Type.STRUCT, out);
        List<String> quoted = new ArrayList<>();
        steps(f).forEach(s -> quoted.add(quoted(s)));
        domain(f, String.join(".", quoted), maxStringDomainSize, out, schema, domainNames);
        return out;
    }

    /** The steps of the feature's path (a name is one step). */
    private static List<String> steps(FeatureNameStatistics f) {
        return f.getFieldIdCase() == FeatureNameStatistics.FieldIdCase.PATH
                ? f.getPath().getStepList()
                : List.of(f.getName());
    }

    /** A step as TFDV serializes it in a path: as it is, or quoted when it holds ( ) . or '. */
    private static String quoted(String step) {
        return PLAIN_STEP.matcher(step).matches() ? step : "'" + step.replace("'", "''") + "'";
    }

    private static String name(FeatureNameStatistics f) {
        return String.join(".", steps(f));
    }

    private static CommonStatistics common(FeatureNameStatistics f) {
        return switch (f.getStatsCase()) {
            case NUM_STATS -> f.getNumStats().getCommonStats();
            case STRING_STATS -> f.getStringStats().getCommonStats();
            case BYTES_STATS -> f.getBytesStats().getCommonStats();
            case STRUCT_STATS -> f.getStructStats().getCommonStats();
            default -> null;
        };
    }

    private static FeatureType type(FeatureNameStatistics.Type t) {
        return switch (t) {
            case INT -> FeatureType.INT;
            case FLOAT -> FeatureType.FLOAT;
            case STRING, BYTES -> FeatureType.BYTES;
            case STRUCT -> FeatureType.STRUCT;
            default -> FeatureType.TYPE_UNKNOWN;
        };
    }

    private static void presenceAndShape(
            CommonStatistics c, boolean inferShape, Feature.Builder out) {
        long present = c.getNumNonMissing();
        FeaturePresence.Builder presence =
                FeaturePresence.newBuilder().setMinCount(present < 1 ? 0 : 1);
        if (present <= 0) {
            out.setPresence(presence);
            return;
        }
        if (c.getNumMissing() == 0) {
            presence.setMinFraction(1.0);
        }
        out.setPresence(presence);
        // one (missing, min, max) per nesting level: the presence-and-valency levels, or the
        // common statistics themselves for a flat feature
        List<long[]> levels = new ArrayList<>();
        if (c.getPresenceAndValencyStatsCount() > 0) {
            for (PresenceAndValencyStatistics l : c.getPresenceAndValencyStatsList()) {
                levels.add(
                        new long[] {
                            l.getNumMissing(), Math.max(l.getMinNumValues(), 0), l.getMaxNumValues()
                        });
            }
        } else {
            levels.add(
                    new long[] {
                        c.getNumMissing(), Math.max(c.getMinNumValues(), 0), c.getMaxNumValues()
                    });
        }
        if (inferShape && fixed(levels)) {
            FixedShape.Builder shape = FixedShape.newBuilder();
            levels.forEach(l -> shape.addDim(FixedShape.Dim.newBuilder().setSize(l[1])));
            out.setShape(shape);
        } else if (levels.size() > 1) {
            ValueCountList.Builder counts = ValueCountList.newBuilder();
            levels.forEach(l -> counts.addValueCount(valueCount(l[1], l[2])));
            out.setValueCounts(counts);
        } else if (levels.get(0)[1] > 0) {
            out.setValueCount(valueCount(levels.get(0)[1], levels.get(0)[2]));
        }
    }

    /** Whether every level is never missing and has one count of values above 0. */
    private static boolean fixed(List<long[]> levels) {
        for (long[] l : levels) {
            if (l[0] != 0 || l[1] != l[2] || l[1] <= 0) {
                return false;
            }
        }
        return true;
    }

    /** {@code min..max} when fixed, {@code min: 1} when it varies, empty when it can be 0. */
    private static ValueCount.Builder valueCount(long min, long max) {
        ValueCount.Builder v = ValueCount.newBuilder();
        if (min > 0) {
            if (min == max) {
                v.setMin(min).setMax(max);
            } else {
                v.setMin(1);
            }
        }
        return v;
    }

    private static void domain(
            FeatureNameStatistics f,
            String name,
            int maxStringDomainSize,
            Feature.Builder out,
            Schema.Builder schema,
            Set<String> domainNames) {
        if (f.getType() == FeatureNameStatistics.Type.BYTES
                || f.getStringStats().getInvalidUtf8Count() > 0) {
            return;
        }
        TreeSet<ByteString> labels = labels(f);
        if (f.getType() == FeatureNameStatistics.Type.INT
                && f.getNumStats().getMin() >= 0
                && f.getNumStats().getMax() == 1) {
            out.setBoolDomain(BoolDomain.getDefaultInstance());
            return;
        }
        if (f.getType() == FeatureNameStatistics.Type.STRING) {
            BoolDomain bool = boolDomain(labels);
            if (bool != null) {
                out.setBoolDomain(bool);
                return;
            }
            if (!labels.isEmpty() && labels.stream().allMatch(SchemaInference::isInteger)) {
                out.setIntDomain(IntDomain.getDefaultInstance());
                return;
            }
        }
        if (!labels.isEmpty() && labels.size() <= maxStringDomainSize) {
            String domain = domainName(name, domainNames);
            StringDomain.Builder d = StringDomain.newBuilder().setName(domain);
            labels.forEach(l -> d.addValue(l.toStringUtf8()));
            schema.addStringDomain(d);
            out.setDomain(domain);
        }
    }

    /** The labels of the rank histogram, in byte order. */
    private static TreeSet<ByteString> labels(FeatureNameStatistics f) {
        TreeSet<ByteString> labels = new TreeSet<>(ByteString.unsignedLexicographicalComparator());
        for (RankHistogram.Bucket b : f.getStringStats().getRankHistogram().getBucketsList()) {
            labels.add(ByteString.copyFromUtf8(b.getLabel()));
        }
        return labels;
    }

    /** The bool domain of one or two tokens, each of another role (true, false), or null. */
    private static BoolDomain boolDomain(TreeSet<ByteString> labels) {
        if (labels.isEmpty() || labels.size() > 2) {
            return null;
        }
        List<String> trues = new ArrayList<>();
        List<String> falses = new ArrayList<>();
        for (ByteString l : labels) {
            String s = l.toStringUtf8();
            if (TRUE_TOKENS.contains(s)) {
                trues.add(s);
            } else if (FALSE_TOKENS.contains(s)) {
                falses.add(s);
            } else {
                return null;
            }
        }
        if (trues.size() > 1 || falses.size() > 1) {
            return null;
        }
        BoolDomain.Builder b = BoolDomain.newBuilder();
        if (!trues.isEmpty()) {
            b.setTrueValue(trues.get(0));
        }
        if (!falses.isEmpty()) {
            b.setFalseValue(falses.get(0));
        }
        return b.build();
    }

    /**
     * Whether {@code l} is an int64 as absl's SimpleAtoi reads one (whitespace and sign allowed).
     */
    private static boolean isInteger(ByteString l) {
        String s = l.toStringUtf8().strip();
        if (s.isEmpty()) {
            return false;
        }
        try {
            Long.parseLong(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** {@code base} (a serialized path) made unique as {@code name}, {@code name2}, … */
    private static String domainName(String base, Set<String> taken) {
        String name = base;
        for (int i = 2; !taken.add(name); i++) {
            name = base + i;
        }
        return name;
    }
}
