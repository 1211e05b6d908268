package io.tfstream.validation;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;

/**
 * Random Examples over the features of {@link #SCHEMA}, each feature absent, of the right kind or
 * of a wrong kind, with value counts, values in and out of their domains, NaN and infinities, and
 * sometimes an unknown feature, built with the generated protobuf classes.
 */
final class RandomExamples {
    private RandomExamples() {}

    static final String SCHEMA =
            "string_domain { name: \"Colors\" value: \"red\" value: \"green\" value: \"blue\" }\n"
                    + "feature { name: \"age\" type: INT int_domain { min: 0 max: 120 }"
                    + " value_count { min: 1 max: 2 } presence { min_fraction: 1.0 } }\n"
                    + "feature { name: \"price\" type: FLOAT float_domain { min: 0 max: 1000"
                    + " disallow_nan: true disallow_inf: true }"
                    + " drift_comparator { jensen_shannon_divergence { threshold: 0.1 } } }\n"
                    + "feature { name: \"color\" type: BYTES domain: \"Colors\""
                    + " drift_comparator { infinity_norm { threshold: 0.2 } }"
                    + " unique_constraints { min: 1 max: 3 } }\n"
                    + "feature { name: \"tag\" type: BYTES string_domain { value: \"a\" value: \"b\" }"
                    + " distribution_constraints { min_domain_mass: 0.5 } }\n"
                    + "feature { name: \"flag\" type: INT bool_domain { } }\n"
                    + "feature { name: \"emb\" type: FLOAT shape { dim { size: 2 } } }\n"
                    + "feature { name: \"old\" type: INT lifecycle_stage: DEPRECATED }\n";

    static final String[] NAMES = {"age", "price", "color", "tag", "flag", "emb", "old"};

    static List<Example> examples(long seed, int n) {
        Random r = new Random(seed);
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(example(r));
        }
        return out;
    }

    static Example example(Random r) {
        Features.Builder f = Features.newBuilder();
        for (String name : NAMES) {
            if (r.nextInt(5) == 0) {
                continue;
            }
            f.putFeature(name, feature(r));
        }
        if (r.nextInt(6) == 0) {
            f.putFeature("extra" + r.nextInt(3), int64s(1));
        }
        return Example.newBuilder().setFeatures(f).build();
    }

    private static Feature feature(Random r) {
        int n = r.nextInt(4);
        switch (r.nextInt(4)) {
            case 0:
                long[] ints = new long[n];
                for (int k = 0; k < n; k++) {
                    ints[k] = r.nextInt(300) - 50;
                }
                return int64s(ints);
            case 1:
                float[] fs = new float[n];
                for (int k = 0; k < n; k++) {
                    int c = r.nextInt(20);
                    fs[k] =
                            c == 0
                                    ? Float.NaN
                                    : c == 1 ? Float.POSITIVE_INFINITY : r.nextFloat() * 1200 - 100;
                }
                return floats(fs);
            case 2:
                String[] pool = {"red", "green", "blue", "pink", "a", "b", "c", "7", "x y"};
                String[] ss = new String[n];
                for (int k = 0; k < n; k++) {
                    ss[k] = pool[r.nextInt(pool.length)];
                }
                return strings(ss);
            default:
                return Feature.getDefaultInstance();
        }
    }
}
