package io.tfstream.testkit;

import java.time.Duration;

/** Waiting on a condition in a test: polled, never slept on a guess. */
public final class Waits {
    private Waits() {}

    /** A condition polled until it holds. */
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code c} every 200 ms; fails naming {@code what} after {@code timeout}. */
    public static void waitFor(Condition c, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!c.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(200);
        }
    }
}
