package io.tfstream.spec;

import org.apache.flink.annotation.PublicEvolving;

/** Integer type of the row partitions of a ragged output ({@code row_splits_dtype}). */
@PublicEvolving
public enum RowSplitsDType {
    INT32("int32"),
    INT64("int64");

    private final String jsonName;

    RowSplitsDType(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    public static RowSplitsDType fromName(String name) {
        switch (name) {
            case "int32":
                return INT32;
            case "int64":
                return INT64;
            default:
                throw new IllegalArgumentException(
                        "row_splits_dtype must be int32 or int64; got '" + name + "'");
        }
    }
}
