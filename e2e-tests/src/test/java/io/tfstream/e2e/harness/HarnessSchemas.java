package io.tfstream.e2e.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * TFMD schemas of the harness profiles, for the run with validation on: their feature specs are the
 * profiles' own ({@code HarnessSchemasTest}), with a domain on every numeric feature of the wide
 * profile (its bytes scalars are random, so they have none) and, for seed-001, the sample dataset's
 * schema.
 */
public final class HarnessSchemas {
    private HarnessSchemas() {}

    static String of(String profile) {
        return profile.equals("wide") ? wide() : seed001();
    }

    static String seed001() {
        try (InputStream in =
                HarnessSchemas.class.getResourceAsStream(
                        "/io/tfstream/sample/seed-001-schema.pbtxt")) {
            if (in == null) {
                throw new IllegalStateException(
                        "the seed-001 sample schema is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String wide() {
        StringBuilder s = new StringBuilder();
        String required = " shape {} presence { min_fraction: 1 min_count: 1 }";
        for (int i = 0; i < 20; i++) {
            s.append(
                    String.format(
                            "feature { name: \"i%02d\" type: INT int_domain { min: %d max: %d }%s }%n",
                            i, Long.MIN_VALUE, Long.MAX_VALUE, required));
            s.append(
                    String.format(
                            "feature { name: \"f%02d\" type: FLOAT float_domain { min: -1e6 max: 1e6"
                                    + " disallow_nan: true disallow_inf: true }%s }%n",
                            i, required));
        }
        for (int i = 0; i < 5; i++) {
            s.append(String.format("feature { name: \"s%d\" type: BYTES%s }%n", i, required));
            s.append(
                    String.format(
                            "feature { name: \"v%d\" type: INT int_domain { min: %d max: %d }"
                                    + " value_count { max: 10 } }%n",
                            i, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        for (int i = 0; i < 2; i++) {
            s.append(
                    String.format(
                            "feature { name: \"r%d\" type: FLOAT float_domain { min: 0 max: 1"
                                    + " disallow_nan: true disallow_inf: true }"
                                    + " value_count { max: 10 } }%n",
                            i));
        }
        // r0 and r1 are raw ragged tensors, as in the profile's spec
        s.append("tensor_representation_group { key: \"\" value {\n");
        String[] dtypes = {"INT32", "INT64"};
        for (int i = 0; i < 2; i++) {
            s.append(
                    String.format(
                            "  tensor_representation { key: \"r%d\" value { ragged_tensor {"
                                    + " feature_path { step: \"r%d\" } row_partition_dtype: %s } } }%n",
                            i, i, dtypes[i]));
        }
        s.append("} }\n");
        return s.toString();
    }
}
