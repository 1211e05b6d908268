package io.tfstream.parse;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Limits on untrusted input, checked before anything is allocated for it. One immutable object; a
 * violation names the value, the limit and the setting ({@link ParseLimitException}).
 *
 * @param maxRecordBytes largest serialized record accepted ({@code maxRecordBytes})
 * @param maxValuesPerFeature most values one feature of one record may hold
 * @param maxFeaturesPerExample most feature map entries one record may hold
 * @param maxBytesPerValue largest single bytes_list value
 * @param maxRaggedRows most rows a RaggedFeature's value_rowids partition may give one batch, and
 *     so one record ({@code max(id) + 1} per record: the only row count that a single value, not
 *     the number of values, decides)
 */
@PublicEvolving
public record ParseLimits(
        int maxRecordBytes,
        int maxValuesPerFeature,
        int maxFeaturesPerExample,
        int maxBytesPerValue,
        int maxRaggedRows)
        implements java.io.Serializable {

    /** 64 MiB per record. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 64 << 20;

    /** 16 Mi values per feature. */
    public static final int DEFAULT_MAX_VALUES_PER_FEATURE = 16 << 20;

    /** 1 Mi map entries per record. */
    public static final int DEFAULT_MAX_FEATURES_PER_EXAMPLE = 1 << 20;

    /** 64 MiB per bytes value. */
    public static final int DEFAULT_MAX_BYTES_PER_VALUE = 64 << 20;

    /** 16 Mi rows per batch from a value_rowids partition (128 MiB of row splits). */
    public static final int DEFAULT_MAX_RAGGED_ROWS = 16 << 20;

    private static final ParseLimits DEFAULTS =
            new ParseLimits(
                    DEFAULT_MAX_RECORD_BYTES,
                    DEFAULT_MAX_VALUES_PER_FEATURE,
                    DEFAULT_MAX_FEATURES_PER_EXAMPLE,
                    DEFAULT_MAX_BYTES_PER_VALUE,
                    DEFAULT_MAX_RAGGED_ROWS);

    private static final ParseLimits NONE =
            new ParseLimits(
                    Integer.MAX_VALUE,
                    Integer.MAX_VALUE,
                    Integer.MAX_VALUE,
                    Integer.MAX_VALUE,
                    Integer.MAX_VALUE - 16);

    public ParseLimits {
        check("maxRecordBytes", maxRecordBytes);
        check("maxValuesPerFeature", maxValuesPerFeature);
        check("maxFeaturesPerExample", maxFeaturesPerExample);
        check("maxBytesPerValue", maxBytesPerValue);
        check("maxRaggedRows", maxRaggedRows);
    }

    /** The first four limits, with the default {@link #DEFAULT_MAX_RAGGED_ROWS}. */
    public ParseLimits(
            int maxRecordBytes,
            int maxValuesPerFeature,
            int maxFeaturesPerExample,
            int maxBytesPerValue) {
        this(
                maxRecordBytes,
                maxValuesPerFeature,
                maxFeaturesPerExample,
                maxBytesPerValue,
                DEFAULT_MAX_RAGGED_ROWS);
    }

    private static void check(String name, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + v);
        }
    }

    /** Generous defaults: no record TensorFlow accepts in practice is refused. */
    public static ParseLimits defaults() {
        return DEFAULTS;
    }

    /** No limits beyond what a Java array can hold; for differential testing. */
    public static ParseLimits none() {
        return NONE;
    }

    public ParseLimits withMaxRecordBytes(int v) {
        return new ParseLimits(
                v, maxValuesPerFeature, maxFeaturesPerExample, maxBytesPerValue, maxRaggedRows);
    }

    public ParseLimits withMaxValuesPerFeature(int v) {
        return new ParseLimits(
                maxRecordBytes, v, maxFeaturesPerExample, maxBytesPerValue, maxRaggedRows);
    }

    public ParseLimits withMaxFeaturesPerExample(int v) {
        return new ParseLimits(
                maxRecordBytes, maxValuesPerFeature, v, maxBytesPerValue, maxRaggedRows);
    }

    public ParseLimits withMaxBytesPerValue(int v) {
        return new ParseLimits(
                maxRecordBytes, maxValuesPerFeature, maxFeaturesPerExample, v, maxRaggedRows);
    }

    public ParseLimits withMaxRaggedRows(int v) {
        return new ParseLimits(
                maxRecordBytes, maxValuesPerFeature, maxFeaturesPerExample, maxBytesPerValue, v);
    }
}
