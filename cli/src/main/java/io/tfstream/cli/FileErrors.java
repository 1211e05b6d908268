package io.tfstream.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

/** How the commands name a file they cannot read: {@code no such file: X}, not an exception. */
final class FileErrors {
    private FileErrors() {}

    /** {@code no such file: X}, {@code permission denied: X}, or {@code cannot read X: why}. */
    static String describe(Object file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file: " + file;
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + file;
        }
        return "cannot read "
                + file
                + ": "
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
}
