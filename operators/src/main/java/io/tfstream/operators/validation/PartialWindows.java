package io.tfstream.operators.validation;

import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowAccumulatorSerializer;
import io.tfstream.validation.WindowSplits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The open event-time windows of one subtask: a partial {@link WindowAccumulator} and a late-record
 * count per window start. Closed windows leave as {@link WindowPartial}s, one per feature-path
 * split ({@link WindowSplits#restrict}); the whole set is snapshotted as whole partials (split -1)
 * and restored by merging, so that after a rescale two partials of one window become one.
 */
final class PartialWindows {
    private final ValidationSchema schema;
    private final WindowAccumulatorSerializer serializer;
    private final long size;
    private final int splits;
    private final TreeMap<Long, WindowAccumulator> open = new TreeMap<>();
    private final TreeMap<Long, Long> late = new TreeMap<>();

    /** The window of the last record: consecutive records mostly share one (no boxing then). */
    private long lastStart;

    private WindowAccumulator last;

    PartialWindows(ValidationSchema schema, long size, int splits) {
        this.schema = schema;
        this.serializer = new WindowAccumulatorSerializer(schema);
        this.size = size;
        this.splits = splits;
    }

    /** The accumulator of the window starting at {@code start}, created when absent. */
    WindowAccumulator window(long start) {
        if (last != null && start == lastStart) {
            return last;
        }
        WindowAccumulator a = open.get(start);
        if (a == null) {
            a = new WindowAccumulator(schema);
            open.put(start, a);
        }
        lastStart = start;
        last = a;
        return a;
    }

    /** Counts a late record against the window starting at {@code start} (still open). */
    void late(long start) {
        window(start);
        late.merge(start, 1L, Long::sum);
    }

    int openWindows() {
        return open.size();
    }

    /** Emits, split by split, and forgets every window that ends at or before {@code watermark}. */
    void emitClosed(long watermark, Consumer<WindowPartial> out) {
        Iterator<Map.Entry<Long, WindowAccumulator>> it = open.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, WindowAccumulator> e = it.next();
            long start = e.getKey();
            if (start + size - 1 > watermark) {
                break;
            }
            long lateCount = late.getOrDefault(start, 0L);
            late.remove(start);
            it.remove();
            if (e.getValue() == last) {
                last = null;
            }
            byte[] whole = serializer.serialize(e.getValue());
            for (int s = 0; s < splits; s++) {
                byte[] bytes = whole;
                if (splits > 1) {
                    bytes =
                            serializer.serialize(
                                    WindowSplits.restrict(deserialize(whole), s, splits));
                }
                // Late records are counted once, by split 0.
                out.accept(
                        new WindowPartial(
                                s,
                                start,
                                start + size,
                                s == 0 ? lateCount : 0,
                                serializer.getVersion(),
                                bytes));
            }
        }
    }

    /** The open windows as whole partials (split -1), for operator state. */
    List<WindowPartial> snapshot() {
        List<WindowPartial> out = new ArrayList<>(open.size());
        for (Map.Entry<Long, WindowAccumulator> e : open.entrySet()) {
            long start = e.getKey();
            out.add(
                    new WindowPartial(
                            -1,
                            start,
                            start + size,
                            late.getOrDefault(start, 0L),
                            serializer.getVersion(),
                            serializer.serialize(e.getValue())));
        }
        return out;
    }

    /** Merges a snapshotted partial back in. */
    void restore(WindowPartial p) throws IOException {
        if (p.windowEnd() - p.windowStart() != size) {
            throw new IOException(
                    "restored validation window ["
                            + p.windowStart()
                            + ", "
                            + p.windowEnd()
                            + ") does not have the configured size of "
                            + size
                            + " ms (validation.window changed?)");
        }
        window(p.windowStart()).merge(serializer.deserialize(p.version(), p.accumulator()));
        if (p.lateCount() > 0) {
            late.merge(p.windowStart(), p.lateCount(), Long::sum);
        }
    }

    private WindowAccumulator deserialize(byte[] bytes) {
        try {
            return serializer.deserialize(serializer.getVersion(), bytes);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read an accumulator just written", e);
        }
    }
}
