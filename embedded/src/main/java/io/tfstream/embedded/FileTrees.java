package io.tfstream.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Whole directory trees on the local disk. */
public final class FileTrees {
    private FileTrees() {}

    /**
     * Deletes {@code root} and everything below it, as far as it can: for temporary directories,
     * whose leftovers harm nothing.
     */
    public static void deleteQuietly(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder())
                    .forEach(
                            p -> {
                                try {
                                    Files.deleteIfExists(p);
                                } catch (IOException e) {
                                    // best effort: a temporary directory
                                }
                            });
        } catch (IOException | UncheckedIOException e) {
            // best effort: a temporary directory
        }
    }
}
