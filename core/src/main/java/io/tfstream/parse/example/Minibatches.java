package io.tfstream.parse.example;

import io.tfstream.parse.SerializedRecords;

/**
 * TensorFlow's split of a batch into minibatches ({@code FastParseExample}: about 50 kB of records
 * each, at least {@code min(8, B)} and at most 64). It is visible only in the value count of the
 * "not a multiple of stride length" message, which the kernel takes from its per-minibatch buffer.
 */
final class Minibatches {
    private static final long MINIBATCH_BYTES = 50_000;

    private int[] starts = new int[65];
    private int count;
    private int next;

    /** Computes the split for {@code records}; then {@link #startsAt(int)} walks it in order. */
    void split(SerializedRecords records) {
        int n = records.size();
        long result = 0;
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            if (bytes == 0) {
                result++;
            }
            bytes += records.length(i) + 1L;
            if (bytes > MINIBATCH_BYTES) {
                bytes = 0;
            }
        }
        count = (int) Math.max(Math.min(8, n), Math.min(64, result));
        for (int m = 0; m <= count; m++) {
            starts[m] = count == 0 ? 0 : (int) ((long) n * m / count);
        }
        next = 0;
    }

    /** True when {@code record} (visited in increasing order) is the first of a minibatch. */
    boolean startsAt(int record) {
        boolean start = false;
        while (next < count && starts[next] == record) {
            next++;
            start = true;
        }
        return start;
    }
}
