package io.tfstream.spec;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The three value types a {@code tf.train.Feature} can carry, as TensorFlow's parsing ops accept
 * them ({@code tf.int64}, {@code tf.float32}, {@code tf.string}).
 */
@PublicEvolving
public enum DType {
    INT64("int64", "int64", "int64", 3),
    FLOAT32("float32", "float", "float", 2),
    STRING("string", "string", "bytes", 1);

    private final String jsonName;
    private final String tfName;
    private final String listName;
    private final int featureKindField;

    DType(String jsonName, String tfName, String listName, int featureKindField) {
        this.jsonName = jsonName;
        this.tfName = tfName;
        this.listName = listName;
        this.featureKindField = featureKindField;
    }

    /**
     * Name used in SPEC.json and in JSON output: {@code int64}, {@code float32}, {@code string}.
     */
    public String jsonName() {
        return jsonName;
    }

    /** TensorFlow's {@code DataTypeString}: {@code int64}, {@code float}, {@code string}. */
    public String tfName() {
        return tfName;
    }

    /**
     * The name of the matching {@code Feature} list as TensorFlow's count errors print it: {@code
     * int64}, {@code float}, {@code bytes}.
     */
    public String listName() {
        return listName;
    }

    /** Field number of the matching list in {@code tensorflow.Feature}'s {@code kind} oneof. */
    public int featureKindField() {
        return featureKindField;
    }

    /** The dtype whose {@code Feature} list has field number {@code field}, or null. */
    public static DType forFeatureKindField(int field) {
        switch (field) {
            case 1:
                return STRING;
            case 2:
                return FLOAT32;
            case 3:
                return INT64;
            default:
                return null;
        }
    }

    /**
     * Parses a dtype name as SPEC.json accepts it: {@code int64}, {@code float32} (alias {@code
     * float}), {@code string} (alias {@code bytes}).
     */
    public static DType fromName(String name) {
        switch (name) {
            case "int64":
                return INT64;
            case "float32":
            case "float":
                return FLOAT32;
            case "string":
            case "bytes":
                return STRING;
            default:
                throw new IllegalArgumentException(
                        "dtypes must be int64, float32, or string (bytes); got '" + name + "'");
        }
    }
}
