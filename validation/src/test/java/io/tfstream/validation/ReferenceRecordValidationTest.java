package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/**
 * Generated cases: random Examples ({@link RandomExamples}) validated from their bytes give exactly
 * the (path, type) list that a plain reference implementation over the parsed {@code Example} proto
 * computes for {@link RandomExamples#SCHEMA}.
 */
class ReferenceRecordValidationTest {
    @Test
    void wireValidatorMatchesTheReference() {
        ValidationSchema s = Fixtures.compiled(RandomExamples.SCHEMA);
        for (Example e : RandomExamples.examples(42, 3000)) {
            List<String> got = new ArrayList<>();
            for (Finding f : Fixtures.validate(s, e)) {
                got.add(f.path() + ":" + f.type());
            }
            assertEquals(reference(e), got, e.toString());
        }
    }

    private static List<String> reference(Example e) {
        List<String> out = new ArrayList<>();
        for (String name : List.of("age", "price", "color", "tag", "flag", "emb")) {
            Feature f = e.getFeatures().getFeatureMap().get(name);
            if (f == null || f.getKindCase() == Feature.KindCase.KIND_NOT_SET) {
                if (name.equals("age")) { // emb: a shape without presence is judged per window
                    out.add(name + ":SCHEMA_MISSING_COLUMN");
                }
                continue;
            }
            check(name, f, out);
        }
        for (String name : e.getFeatures().getFeatureMap().keySet()) {
            if (name.startsWith("extra")) {
                out.add(name + ":SCHEMA_NEW_COLUMN");
            }
        }
        return out;
    }

    private static void check(String name, Feature f, List<String> out) {
        List<Long> ints = f.getInt64List().getValueList();
        List<Float> floats = f.getFloatList().getValueList();
        List<String> strings = new ArrayList<>();
        f.getBytesList().getValueList().forEach(b -> strings.add(b.toStringUtf8()));
        int n = ints.size() + floats.size() + strings.size();
        Feature.KindCase want =
                Set.of("age", "flag").contains(name)
                        ? Feature.KindCase.INT64_LIST
                        : Set.of("price", "emb").contains(name)
                                ? Feature.KindCase.FLOAT_LIST
                                : Feature.KindCase.BYTES_LIST;
        if (name.equals("age") && n < 1) {
            out.add("age:FEATURE_TYPE_LOW_NUMBER_VALUES");
        }
        if (name.equals("age") && n > 2) {
            out.add("age:FEATURE_TYPE_HIGH_NUMBER_VALUES");
        }
        if (name.equals("emb") && n != 2) {
            out.add("emb:INVALID_FEATURE_SHAPE");
        }
        if (f.getKindCase() != want) {
            out.add(name + ":UNEXPECTED_DATA_TYPE");
        }
        switch (name) {
            case "age":
                List<Long> parsed = new ArrayList<>(ints);
                for (String v : strings) {
                    try {
                        parsed.add(Long.parseLong(v));
                    } catch (NumberFormatException x) {
                        out.add("age:INT_TYPE_NOT_INT_STRING");
                        return;
                    }
                }
                if (!parsed.isEmpty() && parsed.stream().mapToLong(x -> x).min().getAsLong() < 0) {
                    out.add("age:INT_TYPE_SMALL_INT");
                }
                if (!parsed.isEmpty()
                        && parsed.stream().mapToLong(x -> x).max().getAsLong() > 120) {
                    out.add("age:INT_TYPE_BIG_INT");
                }
                break;
            case "price":
                List<Double> ds = new ArrayList<>();
                floats.forEach(x -> ds.add((double) x));
                boolean notFloat = false;
                for (String v : strings) {
                    try {
                        ds.add(Double.parseDouble(v));
                    } catch (NumberFormatException x) {
                        notFloat = true;
                    }
                }
                if (ds.stream().anyMatch(d -> d.isNaN())) {
                    out.add("price:FLOAT_TYPE_HAS_NAN");
                }
                if (notFloat) {
                    out.add("price:FLOAT_TYPE_STRING_NOT_FLOAT");
                    return;
                }
                List<Double> real = ds.stream().filter(d -> !d.isNaN()).toList();
                if (!real.isEmpty() && real.stream().mapToDouble(d -> d).min().getAsDouble() < 0) {
                    out.add("price:FLOAT_TYPE_SMALL_FLOAT");
                }
                if (!real.isEmpty()
                        && real.stream().mapToDouble(d -> d).max().getAsDouble() > 1000) {
                    out.add("price:FLOAT_TYPE_BIG_FLOAT");
                }
                if (real.stream().anyMatch(d -> d.isInfinite())) {
                    out.add("price:FLOAT_TYPE_HAS_INF");
                }
                break;
            case "color":
                if (strings.stream().anyMatch(v -> !Set.of("red", "green", "blue").contains(v))) {
                    out.add("color:ENUM_TYPE_UNEXPECTED_STRING_VALUES");
                }
                break;
            case "flag":
                if (!strings.isEmpty()) {
                    out.add("flag:BOOL_TYPE_UNEXPECTED_STRING");
                }
                if (!ints.isEmpty() && ints.stream().mapToLong(x -> x).min().getAsLong() < 0) {
                    out.add("flag:BOOL_TYPE_SMALL_INT");
                } else if (!ints.isEmpty()
                        && ints.stream().mapToLong(x -> x).max().getAsLong() > 1) {
                    out.add("flag:BOOL_TYPE_BIG_INT");
                }
                if (floats.stream().anyMatch(x -> x.isNaN() || (x != 0f && x != 1f))) {
                    out.add("flag:BOOL_TYPE_UNEXPECTED_FLOAT");
                }
                break;
            default:
                break;
        }
    }
}
