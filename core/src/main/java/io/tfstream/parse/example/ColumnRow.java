package io.tfstream.parse.example;

import io.tfstream.parse.ExampleBuilder;
import io.tfstream.parse.FeatureSink;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordDecoder;
import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.RawKey;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One converted record's values appended straight to the parser's columns ({@link RecordDecoder}),
 * and optionally to its Example ({@link #tee}). {@link #finish} then accepts the row only when the
 * Example the converter would have written certainly parses to exactly these values: each key once
 * with its own kind, counts and sizes within the shape and the limits, required keys present.
 * Anything else is left to the Example path, which gives TensorFlow's error in TensorFlow's order.
 */
final class ColumnRow implements FeatureSink {
    /** Bytes an entry adds to the Example beyond its key and values: tags and length varints. */
    private static final int ENTRY_OVERHEAD = 32;

    private final KeyColumn[] bySlot;
    private final int[] headerBound;
    private final KeyColumn[] columns;
    private final ParseLimits limits;

    /** When not null, the record's Example is written too. */
    ExampleBuilder tee;

    int row;
    private int started;
    private int longest;
    private long bound;

    /**
     * The row writer of {@code decoder}'s slots into {@code columns}; null when a slot names no key
     * of the spec or has another type.
     */
    static ColumnRow of(RecordDecoder decoder, KeyColumn[] columns, ParseLimits limits) {
        List<String> names = decoder.featureNames();
        KeyColumn[] bySlot = new KeyColumn[names.size()];
        int[] header = new int[names.size()];
        for (int s = 0; s < bySlot.length; s++) {
            for (KeyColumn c : columns) {
                if (c.key.name.equals(names.get(s))
                        && c.key.dtype == decoder.featureTypes().get(s)) {
                    bySlot[s] = c;
                }
            }
            if (bySlot[s] == null) {
                return null;
            }
            header[s] = names.get(s).getBytes(StandardCharsets.UTF_8).length + ENTRY_OVERHEAD;
        }
        return new ColumnRow(bySlot, header, columns, limits);
    }

    private ColumnRow(KeyColumn[] bySlot, int[] headerBound, KeyColumn[] columns, ParseLimits l) {
        this.bySlot = bySlot;
        this.headerBound = headerBound;
        this.columns = columns;
        this.limits = l;
    }

    @Override
    public void reset() {
        if (started > 0) {
            for (KeyColumn c : columns) {
                c.rollback(row);
            }
        }
        started = 0;
        longest = 0;
        bound = 8; // Example.features: tag and length
        if (tee != null) {
            tee.reset();
        }
    }

    @Override
    public boolean start(int slot) {
        KeyColumn c = bySlot[slot];
        if (c.seenRow == row) {
            return false;
        }
        c.seenRow = row;
        started++;
        bound += headerBound[slot];
        if (tee != null) {
            tee.start(slot);
        }
        return true;
    }

    @Override
    public void addInt64(int slot, long v) {
        bySlot[slot].int64s.add(v);
        bound += 10;
        if (tee != null) {
            tee.addInt64(slot, v);
        }
    }

    @Override
    public void addFloat(int slot, float v) {
        bySlot[slot].floats.add(v);
        bound += 4;
        if (tee != null) {
            tee.addFloat(slot, v);
        }
    }

    @Override
    public void addBytes(int slot, byte[] b, int off, int len) {
        bySlot[slot].bytes.add(b, off, len);
        if (len > longest) {
            longest = len;
        }
        bound += len + 6L;
        if (tee != null) {
            tee.addBytes(slot, b, off, len);
        }
    }

    /**
     * Completes the row (row ends, defaults of absent dense keys, row states when {@code
     * rowStates}) when the Example path would accept it with these values; false otherwise, with
     * the columns to be rolled back by the caller. {@code exampleBytes} is the Example's exact
     * size, or -1 when it was not written.
     */
    boolean finish(int exampleBytes, boolean rowStates) {
        long size = exampleBytes >= 0 ? exampleBytes : bound;
        int entries = started;
        started = 0; // the next reset has nothing of this row to take back
        if (entries > limits.maxFeaturesPerExample()
                || longest > limits.maxBytesPerValue()
                || size > limits.maxRecordBytes()) {
            return false;
        }
        int maxValues = limits.maxValuesPerFeature();
        int row = this.row;
        for (KeyColumn c : columns) {
            RawKey key = c.key;
            boolean present = c.seenRow == row;
            if (present) {
                boolean fixed = key.kind == RawKey.Kind.DENSE_FIXED;
                int end = c.size();
                int n = end - (fixed ? row * key.stride : c.ends[row]);
                if (n > maxValues
                        || (fixed && n != key.stride)
                        || (key.kind == RawKey.Kind.DENSE_VARLEN && n % key.stride != 0)) {
                    return false;
                }
                if (!fixed) {
                    c.ends[row + 1] = end;
                }
            } else if (key.kind == RawKey.Kind.DENSE_FIXED) {
                if (key.required()) {
                    return false;
                }
                c.appendDefault(key.defaultValue);
            } else {
                c.ends[row + 1] = c.size();
            }
            if (rowStates) {
                c.rowState[row] = present ? RawColumns.PRESENT : RawColumns.ABSENT;
            }
        }
        return true;
    }
}
