package io.tfstream.cli;

import io.tfstream.parse.FeatureEntryWalker;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.wire.FeatureValues;
import java.util.List;

/**
 * Reads a record's event time from one int64 feature of its wire bytes ({@code Example.features},
 * or {@code SequenceExample.context}), in epoch milliseconds: the feature must hold exactly one
 * value. Reuses its buffers: one instance per reading thread.
 */
final class EventTimeReader implements FeatureEntryWalker.Visitor {
    /** Returned by {@link #read} when the record has no usable event time. */
    static final long NONE = Long.MIN_VALUE;

    private final String feature;
    private final FeatureEntryWalker walker;
    private final FeatureValues values;
    private final long millisPerUnit;
    private byte[] entryBuf;
    private int entryStart;
    private int entryEnd;

    /**
     * @param feature the int64 feature holding the event time
     * @param millisPerUnit 1 when it holds epoch milliseconds, 1000 for epoch seconds
     */
    EventTimeReader(String feature, long millisPerUnit, ParseLimits limits) {
        this.feature = feature;
        this.walker = new FeatureEntryWalker(List.of(feature), List.of(), limits);
        this.values = new FeatureValues(limits);
        this.millisPerUnit = millisPerUnit;
    }

    String feature() {
        return feature;
    }

    /**
     * The event time in epoch ms of the record {@code buf[off, off+len)}, or {@link #NONE} when the
     * record does not parse, lacks the feature, or the feature is not one int64 (or overflows).
     */
    long read(byte[] buf, int off, int len, boolean sequence) {
        entryBuf = null;
        FeatureEntryWalker.Status st =
                sequence
                        ? walker.walkSequenceExample(buf, off, len, this)
                        : walker.walkExample(buf, off, len, this);
        if (st != FeatureEntryWalker.Status.OK || entryBuf == null) {
            return NONE;
        }
        values.clear();
        int kind = values.add(entryBuf, entryStart, entryEnd);
        entryBuf = null;
        if (kind != FeatureValues.KIND_INT64 || values.lastCount() != 1) {
            return NONE;
        }
        long v = values.int64s().get(0);
        if (v > Long.MAX_VALUE / millisPerUnit || v < (Long.MIN_VALUE + 1) / millisPerUnit) {
            return NONE;
        }
        return v * millisPerUnit;
    }

    @Override
    public void entry(
            int section, int keyId, byte[] buf, int keyStart, int keyLen, int start, int end) {
        if (keyId == 0 && section == FeatureEntryWalker.CONTEXT) {
            // A repeated key: protobuf map semantics keep the last entry.
            entryBuf = buf;
            entryStart = start;
            entryEnd = end;
        }
    }
}
