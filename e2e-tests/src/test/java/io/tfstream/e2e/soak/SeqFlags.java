package io.tfstream.e2e.soak;

import java.util.Arrays;

/**
 * A count per sequence number (saturating at 127), growing with the run: a byte per record, so that
 * hours of input fit in tens of megabytes.
 */
final class SeqFlags {
    private byte[] counts = new byte[1 << 16];
    private long contiguous;
    private long marks;

    /** Adds one to {@code seq}'s count; returns the count before. */
    synchronized int mark(long seq) {
        if (seq >= counts.length) {
            int n = counts.length;
            while (n <= seq) {
                n *= 2;
            }
            counts = Arrays.copyOf(counts, n);
        }
        marks++;
        int before = counts[(int) seq];
        if (before < Byte.MAX_VALUE) {
            counts[(int) seq]++;
        }
        return before;
    }

    synchronized int count(long seq) {
        return seq < counts.length ? counts[(int) seq] : 0;
    }

    /** How many times {@link #mark} was called: every record seen, duplicates included. */
    synchronized long marks() {
        return marks;
    }

    /** The first seq never marked, every one before it marked. */
    synchronized long contiguous() {
        while (contiguous < counts.length && counts[(int) contiguous] > 0) {
            contiguous++;
        }
        return contiguous;
    }
}
