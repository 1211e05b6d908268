package io.tfstream.testkit;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Trees of files the tests write and read: listed, hidden names told, deleted, copied. */
public final class TestFiles {
    private TestFiles() {}

    /** Whether a name of {@code relative} starts with '.' or '_' (what listers skip). */
    public static boolean hidden(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".") || part.toString().startsWith("_")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Regular files under {@code base}, sorted; files that vanish while the tree is walked (a sink
     * deleting compacted inputs, a rename) are skipped rather than failing the walk.
     */
    public static List<Path> regularFiles(Path base) throws IOException {
        List<Path> files = new ArrayList<>();
        if (!Files.exists(base)) {
            return files;
        }
        Files.walkFileTree(
                base,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (attrs.isRegularFile()) {
                            files.add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e)
                            throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return FileVisitResult.CONTINUE;
                        }
                        throw e;
                    }
                });
        files.sort(null);
        return files;
    }

    /** Deletes {@code root} and everything under it, if it exists. */
    public static void deleteTree(Path root) throws IOException {
        if (root != null && Files.exists(root)) {
            try (var files = Files.walk(root)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** Copies the tree under {@code from} to {@code to} (hidden files included). */
    public static void copyTree(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
