package io.tfstream.fuzz;

import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Fails an execution that allocates far more than its input could justify: the sign of an array
 * sized by a length or count read from the input instead of by the bytes actually present.
 */
final class AllocationBudget {
    /** Room for per-call buffers (64 KiB read and inflater windows), parsers and outputs. */
    private static final long FIXED = 8L << 20;

    /** Generous: a one-byte value can legitimately become a long plus row bookkeeping. */
    private static final long PER_INPUT_BYTE = 256;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** A body that may throw anything; the fuzz targets check exceptions themselves. */
    interface Body {
        void run() throws Exception;
    }

    private AllocationBudget() {}

    /**
     * Runs {@code body}; if it allocated more than the budget for {@code inputLength} bytes, runs
     * it once more (the first run may pay for class loading and JIT) and fails if it still does.
     */
    static void check(int inputLength, Body body) throws Exception {
        check(() -> inputLength, body);
    }

    /**
     * As {@link #check(int, Body)} with the budget set by {@code justifiedBytes}, read after the
     * body ran: for a compressed input, the bytes it decompressed to.
     */
    static void check(LongSupplier justifiedBytes, Body body) throws Exception {
        long used = measure(body);
        if (used > budget(justifiedBytes) && measure(body) > budget(justifiedBytes)) {
            throw new AssertionError(
                    "allocated "
                            + used
                            + " bytes for "
                            + justifiedBytes.getAsLong()
                            + " input bytes (budget "
                            + budget(justifiedBytes)
                            + ")");
        }
    }

    private static long budget(LongSupplier justifiedBytes) {
        return FIXED + PER_INPUT_BYTE * justifiedBytes.getAsLong();
    }

    private static long measure(Body body) throws Exception {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        body.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
