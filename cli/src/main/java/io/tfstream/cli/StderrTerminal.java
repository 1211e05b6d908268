package io.tfstream.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether standard error is a terminal, for progress lines written there. Java 17 has no {@code
 * isatty}: {@link System#console()} only says that stdin and stdout are terminals. On Linux, {@code
 * /proc/self/fd/2} links to the terminal device ({@code /dev/pts/N}, {@code /dev/ttyN}) when stderr
 * is one and to a pipe, socket or file otherwise; where it cannot be read (no {@code /proc}, as on
 * macOS) the console is all there is to go by.
 */
final class StderrTerminal {
    private static final Path STDERR_LINK = Path.of("/proc/self/fd/2");

    private StderrTerminal() {}

    /** True when this process has a console and its stderr is a terminal device. */
    static boolean isTerminal() {
        return isTerminal(System.console() != null, STDERR_LINK);
    }

    /** The decision, for a console or not and the link naming what file descriptor 2 is. */
    static boolean isTerminal(boolean console, Path stderrLink) {
        if (!console) {
            return false;
        }
        String target;
        try {
            target = Files.readSymbolicLink(stderrLink).toString();
        } catch (IOException | UnsupportedOperationException e) {
            // No /proc to ask: the console (stdin and stdout on a terminal) decides alone.
            return true;
        }
        return target.startsWith("/dev/pts/")
                || target.startsWith("/dev/tty")
                || target.equals("/dev/console");
    }
}
