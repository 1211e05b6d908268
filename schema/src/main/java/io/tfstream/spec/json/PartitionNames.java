package io.tfstream.spec.json;

import io.tfstream.spec.Partition;

/** SPEC.json names of the {@link Partition} kinds. */
final class PartitionNames {
    static final String ROW_SPLITS = "row_splits";
    static final String ROW_LENGTHS = "row_lengths";
    static final String ROW_STARTS = "row_starts";
    static final String ROW_LIMITS = "row_limits";
    static final String VALUE_ROWIDS = "value_rowids";
    static final String UNIFORM_ROW_LENGTH = "uniform_row_length";

    private PartitionNames() {}

    static String of(Partition p) {
        if (p instanceof Partition.RowSplits) {
            return ROW_SPLITS;
        } else if (p instanceof Partition.RowLengths) {
            return ROW_LENGTHS;
        } else if (p instanceof Partition.RowStarts) {
            return ROW_STARTS;
        } else if (p instanceof Partition.RowLimits) {
            return ROW_LIMITS;
        } else if (p instanceof Partition.ValueRowIds) {
            return VALUE_ROWIDS;
        }
        return UNIFORM_ROW_LENGTH;
    }

    /** The partition named {@code kind} with key {@code key}, or null for an unknown kind. */
    static Partition keyed(String kind, String key) {
        switch (kind) {
            case ROW_SPLITS:
                return new Partition.RowSplits(key);
            case ROW_LENGTHS:
                return new Partition.RowLengths(key);
            case ROW_STARTS:
                return new Partition.RowStarts(key);
            case ROW_LIMITS:
                return new Partition.RowLimits(key);
            case VALUE_ROWIDS:
                return new Partition.ValueRowIds(key);
            default:
                return null;
        }
    }
}
