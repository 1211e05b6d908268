package io.tfstream.spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Test resources on the file system (the test-classes directory). */
public final class TestResources {
    private TestResources() {}

    public static Path dir(String name) {
        URL url = TestResources.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("missing test resource directory " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Files in {@code dir} whose names end in {@code suffix}, sorted by name. */
    public static List<Path> files(Path dir, String suffix) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sibling of {@code file} with {@code suffix} in place of {@code oldSuffix}. */
    public static Path sibling(Path file, String oldSuffix, String suffix) {
        String name = file.getFileName().toString();
        return file.resolveSibling(name.substring(0, name.length() - oldSuffix.length()) + suffix);
    }

    public static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
