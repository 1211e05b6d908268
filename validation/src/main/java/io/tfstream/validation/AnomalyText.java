package io.tfstream.validation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;
import org.tensorflow.metadata.v0.FeatureType;

/**
 * The short descriptions and descriptions of TFDV's reasons, character for character as its C++
 * validator builds them ({@code feature_util.cc}, {@code schema.cc}, {@code *_domain_util.cc}),
 * from the numbers a {@link RecordResult} or the window evaluation keeps.
 */
final class AnomalyText {
    private AnomalyText() {}

    /** Data type names of {@code FeatureNameStatistics.Type}, indexed by the validator's codes. */
    static final String[] STATS_TYPE = {"INT", "FLOAT", "STRING", "BYTES"};

    static String shortDescription(RecordResult r, int i) {
        Type t = r.type(i);
        switch (t) {
            case SCHEMA_NEW_COLUMN:
                return r.variant(i) == ENV_VARIANT ? "Column missing in environment" : "New column";
            case BOOL_TYPE_SMALL_INT:
            case BOOL_TYPE_BIG_INT:
            case BOOL_TYPE_UNEXPECTED_FLOAT:
            case BOOL_TYPE_UNEXPECTED_STRING:
                return "Non-boolean values";
            default:
                return shortDescription(t);
        }
    }

    /** Marks the environment variant of SCHEMA_NEW_COLUMN (distinct from the section codes). */
    static final int ENV_VARIANT = 7;

    /** The short description that depends only on the type. */
    static String shortDescription(Type t) {
        switch (t) {
            case SCHEMA_MISSING_COLUMN:
            case FEATURE_TYPE_NOT_PRESENT:
            case FEATURE_TYPE_LOW_NUMBER_PRESENT:
            case FEATURE_TYPE_LOW_FRACTION_PRESENT:
                return "Column dropped";
            case SCHEMA_NEW_COLUMN:
                return "New column";
            case FEATURE_TYPE_LOW_NUMBER_VALUES:
                return "Missing values";
            case FEATURE_TYPE_HIGH_NUMBER_VALUES:
                return "Superfluous values";
            case VALUE_NESTEDNESS_MISMATCH:
                return "Mismatched value nest level";
            case INVALID_FEATURE_SHAPE:
                return "Feature shape dropped";
            case UNEXPECTED_DATA_TYPE:
                return "Unexpected data type";
            case INT_TYPE_SMALL_INT:
            case INT_TYPE_BIG_INT:
            case FLOAT_TYPE_SMALL_FLOAT:
            case FLOAT_TYPE_BIG_FLOAT:
                return "Out-of-range values";
            case INT_TYPE_NOT_INT_STRING:
            case FLOAT_TYPE_HAS_NAN:
            case FLOAT_TYPE_HAS_INF:
            case FLOAT_TYPE_STRING_NOT_FLOAT:
                return "Invalid values";
            case ENUM_TYPE_INVALID_UTF8:
                return "Invalid UTF8 strings";
            case ENUM_TYPE_UNEXPECTED_STRING_VALUES:
                return "Unexpected string values";
            case BOOL_TYPE_SMALL_INT:
            case BOOL_TYPE_BIG_INT:
            case BOOL_TYPE_UNEXPECTED_FLOAT:
            case BOOL_TYPE_UNEXPECTED_STRING:
                return "Non-boolean values";
            case SPARSE_FEATURE_MISSING_VALUE:
            case WEIGHTED_FEATURE_MISSING_VALUE:
                return "Missing value feature";
            case SPARSE_FEATURE_MISSING_INDEX:
                return "Missing index feature";
            case SPARSE_FEATURE_LENGTH_MISMATCH:
                return "Length mismatch between value and index feature";
            case WEIGHTED_FEATURE_MISSING_WEIGHT:
                return "Missing weight feature";
            case WEIGHTED_FEATURE_LENGTH_MISMATCH:
                return "Length mismatch between value and weight feature";
            case FEATURE_TYPE_LOW_UNIQUE:
                return "Low number of unique values";
            case FEATURE_TYPE_HIGH_UNIQUE:
                return "High number of unique values";
            case DATASET_LOW_NUM_EXAMPLES:
                return "Low num examples in dataset.";
            case DATASET_HIGH_NUM_EXAMPLES:
                return "High num examples in dataset.";
            case COMPARATOR_L_INFTY_HIGH:
                return "High Linfty distance between current and previous";
            case COMPARATOR_JENSEN_SHANNON_DIVERGENCE_HIGH:
                return "High approximate Jensen-Shannon divergence between current and previous";
            default:
                return t.name();
        }
    }

    static String description(RecordResult r, int i, ValidationSchema schema) {
        Type t = r.type(i);
        int v = r.variant(i);
        switch (t) {
            case SCHEMA_NEW_COLUMN:
                if (v == ENV_VARIANT) {
                    return "New column "
                            + r.path(i, schema).serialized()
                            + " found in data but not in the environment "
                            + schema.options().environment()
                            + " in the schema.";
                }
                return "New column (column in data but not in schema)";
            case SCHEMA_MISSING_COLUMN:
                return "Column is completely missing";
            case FEATURE_TYPE_LOW_NUMBER_VALUES:
                return v < 0
                        ? "Some examples have fewer values than expected."
                        : "Some examples have fewer values than expected at nestedness level "
                                + v
                                + ".";
            case FEATURE_TYPE_HIGH_NUMBER_VALUES:
                return v < 0
                        ? "Some examples have more values than expected."
                        : "Some examples have more values than expected at nestedness level "
                                + v
                                + ".";
            case VALUE_NESTEDNESS_MISMATCH:
                return v == 0
                        ? "This feature has a value_count, but the nestedness level of the feature"
                                + " > 1. For features with nestedness levels greater than 1,"
                                + " value_counts, not value_count, should be specified."
                        : "The values have a different nest level than expected. Value counts will"
                                + " not be checked.";
            case INVALID_FEATURE_SHAPE:
                return v == 0
                        ? SHAPE_NOT_ALWAYS_PRESENT
                        : "The feature has fixed value length "
                                + r.n1(i)
                                + " but it's not compatible with the specified shape.";
            case UNEXPECTED_DATA_TYPE:
                return "Expected data of type: "
                        + FeatureType.forNumber((int) r.n1(i)).name()
                        + " but got "
                        + STATS_TYPE[(int) r.n2(i)];
            case INT_TYPE_SMALL_INT:
                return "Unexpectedly small value: " + r.n1(i) + ".";
            case INT_TYPE_BIG_INT:
                return "Unexpectedly large value: " + r.n1(i) + ".";
            case INT_TYPE_NOT_INT_STRING:
                return "String values that were not ints were found, such as \""
                        + firstSample(r, i)
                        + "\".";
            case FLOAT_TYPE_STRING_NOT_FLOAT:
                return "String values that were not floats were found, such as \""
                        + firstSample(r, i)
                        + "\".";
            case FLOAT_TYPE_HAS_NAN:
                return "Float feature has NaN values.";
            case FLOAT_TYPE_HAS_INF:
                return "Float feature has Inf values.";
            case FLOAT_TYPE_SMALL_FLOAT:
                return floatLow(r.d1(i), r.d2(i));
            case FLOAT_TYPE_BIG_FLOAT:
                return floatHigh(r.d1(i), r.d2(i));
            case ENUM_TYPE_INVALID_UTF8:
                return "Found strings that were not valid UTF8 strings.";
            case ENUM_TYPE_UNEXPECTED_STRING_VALUES:
                return unexpectedStrings(r.sampleValuesRaw(i), r.sampleCountsOf(i), r.n1(i));
            case BOOL_TYPE_UNEXPECTED_STRING:
                return boolUnexpectedString(
                        firstSample(r, i),
                        schema.rule(r.pathId(i)).trueValue,
                        schema.rule(r.pathId(i)).falseValue);
            case BOOL_TYPE_SMALL_INT:
            case BOOL_TYPE_BIG_INT:
                return "Integers (such as "
                        + TfdvFormat.sixDigits(r.d1(i))
                        + ") not in {0, 1}: converting to an integer.";
            case BOOL_TYPE_UNEXPECTED_FLOAT:
                return boolFloat(v, r.d1(i));
            case SPARSE_FEATURE_MISSING_VALUE:
                return "Found " + r.n1(i) + " examples missing value feature";
            case SPARSE_FEATURE_MISSING_INDEX:
                return "Found "
                        + r.n1(i)
                        + " examples missing index feature: "
                        + schema.composite(r.pathId(i)).indexNames()[v];
            case SPARSE_FEATURE_LENGTH_MISMATCH:
                return "Mismatch between index feature: "
                        + schema.composite(r.pathId(i)).indexNames()[v]
                        + " and value column, with "
                        + (r.n2(i) == 0 ? "max_length_diff" : "min_length_diff")
                        + " = "
                        + r.n1(i);
            case WEIGHTED_FEATURE_MISSING_VALUE:
                return "Found " + r.n1(i) + " examples missing value feature.";
            case WEIGHTED_FEATURE_MISSING_WEIGHT:
                return "Found " + r.n1(i) + " examples missing weight feature.";
            case WEIGHTED_FEATURE_LENGTH_MISMATCH:
                return "Mismatch between weight and value feature with min_weight_length_diff = "
                        + r.n1(i)
                        + " and max_weight_length_diff = "
                        + r.n2(i)
                        + ".";
            default:
                return t.name();
        }
    }

    static final String SHAPE_NOT_ALWAYS_PRESENT =
            "The feature has a shape, but it's not always present (if the feature is nested, then"
                    + " it should always be present at each nested level) or its value lengths"
                    + " vary.";

    static String floatLow(double min, double domainMin) {
        return "Unexpectedly low values: "
                + TfdvFormat.sixDigits(min)
                + "<"
                + TfdvFormat.sixDigits(domainMin)
                + "(upto six significant digits)";
    }

    static String floatHigh(double max, double domainMax) {
        return "Unexpectedly high value: "
                + TfdvFormat.sixDigits(max)
                + ">"
                + TfdvFormat.sixDigits(domainMax)
                + "(upto six significant digits)";
    }

    static String boolFloat(int variant, double v) {
        switch (variant) {
            case 0:
                return "Floats (such as "
                        + TfdvFormat.sixDigits(v)
                        + ") not in {0, 1}: converting to float_domain.";
            case 1:
                return "Floats (such as NaN) not in {0, 1}: converting to float_domain.";
            default:
                return "Float values falling between 0 and 1: converting to float_domain.";
        }
    }

    static String boolUnexpectedString(String value, byte[] trueValue, byte[] falseValue) {
        List<String> allowed = new ArrayList<>();
        if (trueValue != null) {
            allowed.add(new String(trueValue, StandardCharsets.UTF_8));
        }
        if (falseValue != null) {
            allowed.add(new String(falseValue, StandardCharsets.UTF_8));
        }
        allowed.sort(null);
        StringBuilder b = new StringBuilder("Saw unexpected value \"").append(value);
        b.append("\" instead of {");
        for (int k = 0; k < allowed.size(); k++) {
            b.append(k == 0 ? "\"" : ", \"").append(allowed.get(k)).append('"');
        }
        return b.append("}.").toString();
    }

    /**
     * {@code string_domain_util.cc}: {@code Examples contain values missing from the schema: v1
     * (~p1%), v2 (<1%). } with values in byte order.
     */
    static String unexpectedStrings(byte[][] values, long[] counts, long total) {
        Integer[] order = new Integer[values.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(values[a], values[b]));
        StringBuilder b = new StringBuilder("Examples contain values missing from the schema: ");
        for (int k = 0; k < order.length; k++) {
            if (k > 0) {
                b.append(", ");
            }
            b.append(TfdvFormat.cEscape(values[order[k]])).append(" (");
            b.append(percent(counts[order[k]], total)).append(')');
        }
        return b.append(". ").toString();
    }

    private static String percent(long count, long total) {
        if (total == 0) {
            return "?";
        }
        double p = 100.0 * count / total;
        return p < 1 ? "<1%" : "~" + (long) Math.floor(p) + "%";
    }

    private static String firstSample(RecordResult r, int i) {
        return r.sampleCount(i) == 0 ? "" : r.sampleValues(i).get(0).value();
    }
}
