package io.tfstream.spec;

import java.util.Objects;

/**
 * One row partition of a {@link RaggedFeature}, as {@code tf.io.RaggedFeature.RowSplits} and its
 * siblings. Every kind but {@link UniformRowLength} names an int64 feature holding the partition.
 */
public sealed interface Partition {

    /** The feature holding this partition, or null for {@link UniformRowLength}. */
    String key();

    private static String checkKey(String key) {
        Objects.requireNonNull(key, "partition key");
        return key;
    }

    record RowSplits(String key) implements Partition {
        public RowSplits {
            checkKey(key);
        }
    }

    record RowLengths(String key) implements Partition {
        public RowLengths {
            checkKey(key);
        }
    }

    record RowStarts(String key) implements Partition {
        public RowStarts {
            checkKey(key);
        }
    }

    record RowLimits(String key) implements Partition {
        public RowLimits {
            checkKey(key);
        }
    }

    record ValueRowIds(String key) implements Partition {
        public ValueRowIds {
            checkKey(key);
        }
    }

    record UniformRowLength(long length) implements Partition {
        public UniformRowLength {
            if (length < 0) {
                throw new IllegalArgumentException(
                        "uniform_row_length must be non-negative; got " + length);
            }
        }

        @Override
        public String key() {
            return null;
        }
    }
}
