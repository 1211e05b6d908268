package io.tfstream.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * One refreshing progress line on stderr for commands that read large or many files: files and
 * bytes done, rate and ETA. Quiet unless stderr is a terminal ({@link StderrTerminal}), so that
 * scripts, pipes and logs see only the command's output; refreshed at most twice a second.
 *
 * <p>Commands print through {@link #out()} and {@link #err()}: those erase the progress line before
 * writing, so that output lines never run into it.
 */
final class Progress {
    private static final long REFRESH_NANOS = 500_000_000L;

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean enabled;
    private final LongSupplier clock;
    private final int files;
    private final long totalBytes;
    private final long start;
    private final PrintWriter guardedOut;
    private final PrintWriter guardedErr;
    private long lastPrint;
    private int filesDone;
    private long bytesDone;
    private long bytesOfCurrentFile;
    private int shownWidth;

    Progress(
            PrintWriter out,
            PrintWriter err,
            boolean enabled,
            LongSupplier nanoClock,
            int files,
            long totalBytes) {
        this.out = out;
        this.err = err;
        this.enabled = enabled;
        this.clock = nanoClock;
        this.files = files;
        this.totalBytes = totalBytes;
        this.start = nanoClock.getAsLong();
        this.lastPrint = start;
        this.guardedOut = enabled ? new PrintWriter(new LineClearing(out), true) : out;
        this.guardedErr = enabled ? new PrintWriter(new LineClearing(err), true) : err;
    }

    /** Progress on stderr when it is a terminal. */
    static Progress onTerminal(PrintWriter out, PrintWriter err, int files, long totalBytes) {
        return new Progress(
                out, err, StderrTerminal.isTerminal(), System::nanoTime, files, totalBytes);
    }

    /** The command's standard output; erases the progress line before it writes. */
    PrintWriter out() {
        return guardedOut;
    }

    /** The command's standard error; erases the progress line before it writes. */
    PrintWriter err() {
        return guardedErr;
    }

    /** {@code bytes} of the file being read are done (for progress inside a large file). */
    void read(long bytes) {
        bytesOfCurrentFile = bytes;
        refresh();
    }

    /** A file of {@code bytes} is done. */
    void fileDone(long bytes) {
        filesDone++;
        bytesDone += bytes;
        bytesOfCurrentFile = 0;
        refresh();
    }

    /** Erases the line once the work is done. */
    void done() {
        clear();
    }

    private void refresh() {
        long now = clock.getAsLong();
        if (!enabled || now - lastPrint < REFRESH_NANOS) {
            return;
        }
        lastPrint = now;
        long done = bytesDone + bytesOfCurrentFile;
        double seconds = (now - start) / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        String eta = rate > 0 ? clockText((long) (Math.max(0, totalBytes - done) / rate)) : "?";
        String line =
                String.format(
                        Locale.ROOT,
                        "%s%s of %s, %s/s, ETA %s",
                        files == 1 ? "" : filesDone + "/" + files + " files, ",
                        size(done),
                        size(totalBytes),
                        size((long) rate),
                        eta);
        // Whatever the command printed goes first, above the line.
        out.flush();
        err.print("\r" + line + " ".repeat(Math.max(0, shownWidth - line.length())));
        err.flush();
        shownWidth = line.length();
    }

    private void clear() {
        if (shownWidth > 0) {
            err.print("\r" + " ".repeat(shownWidth) + "\r");
            err.flush();
            shownWidth = 0;
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

    /** Erases the progress line before anything reaches {@code to}. */
    private final class LineClearing extends Writer {
        private final PrintWriter to;

        LineClearing(PrintWriter to) {
            this.to = to;
        }

        @Override
        public void write(char[] chars, int off, int len) {
            clear();
            to.write(chars, off, len);
        }

        @Override
        public void write(String s, int off, int len) {
            clear();
            to.write(s, off, len);
        }

        @Override
        public void flush() {
            to.flush();
        }

        @Override
        public void close() {
            // The command's streams belong to the command line: flushed, never closed here.
            to.flush();
        }
    }
}
