package io.tfstream.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * One refreshing progress line on stderr for commands that read many files: files and bytes done,
 * rate and ETA. Quiet unless the process runs on a terminal, so that scripts and pipes see only the
 * command's output; refreshed at most twice a second.
 */
final class Progress {
    private static final long REFRESH_NANOS = 500_000_000L;

    private final PrintWriter err;
    private final boolean enabled;
    private final LongSupplier clock;
    private final int files;
    private final long totalBytes;
    private final long start;
    private long lastPrint;
    private int filesDone;
    private long bytesDone;
    private boolean printed;

    Progress(PrintWriter err, boolean enabled, LongSupplier nanoClock, int files, long totalBytes) {
        this.err = err;
        this.enabled = enabled;
        this.clock = nanoClock;
        this.files = files;
        this.totalBytes = totalBytes;
        this.start = nanoClock.getAsLong();
        this.lastPrint = start;
    }

    /** Progress on stderr when the process runs on a terminal. */
    static Progress onTerminal(PrintWriter err, int files, long totalBytes) {
        return new Progress(err, System.console() != null, System::nanoTime, files, totalBytes);
    }

    /** A file of {@code bytes} is done. */
    void fileDone(long bytes) {
        filesDone++;
        bytesDone += bytes;
        long now = clock.getAsLong();
        if (enabled && now - lastPrint >= REFRESH_NANOS) {
            lastPrint = now;
            double seconds = (now - start) / 1e9;
            double rate = seconds > 0 ? bytesDone / seconds : 0;
            long left = totalBytes - bytesDone;
            String eta = rate > 0 ? clockText((long) (left / rate)) : "?";
            err.print(
                    String.format(
                            Locale.ROOT,
                            "\r%d/%d files, %s of %s, %s/s, ETA %s   ",
                            filesDone,
                            files,
                            size(bytesDone),
                            size(totalBytes),
                            size((long) rate),
                            eta));
            err.flush();
            printed = true;
        }
    }

    /** Clears the line once the work is done. */
    void done() {
        if (printed) {
            err.print("\r" + " ".repeat(72) + "\r");
            err.flush();
        }
    }

    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double v = bytes;
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static String clockText(long seconds) {
        return String.format(
                Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}
