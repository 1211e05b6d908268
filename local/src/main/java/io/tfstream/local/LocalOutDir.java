package io.tfstream.local;

import io.tfstream.embedded.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code --out} directory: refused before the run starts unless it is new, empty or holds only
 * a previous run's outputs, which the run then replaces.
 */
final class LocalOutDir {
    /** Entries a previous run leaves in {@code --out}; only those are replaced. */
    static final List<String> OUTPUTS =
            List.of(
                    "shards",
                    "s3",
                    "dlq.jsonl",
                    "batches.tfrecord",
                    "alerts.jsonl",
                    "summary.json",
                    LocalSchemaCopies.DIR,
                    LocalSchemaCopies.SPEC,
                    LocalStats.FILE,
                    LocalStats.REPORT);

    private LocalOutDir() {}

    /** Throws a {@link LocalRun.UsageException} when {@code dir} cannot take the outputs. */
    static void check(Path dir) {
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new LocalRun.UsageException(
                        "--out " + dir + " exists and is not a directory");
            }
            if (!Files.isWritable(dir)) {
                throw new LocalRun.UsageException("--out " + dir + " is not writable");
            }
            try (Stream<Path> entries = Files.list(dir)) {
                List<String> others =
                        entries.map(p -> p.getFileName().toString())
                                .filter(n -> !OUTPUTS.contains(n))
                                .sorted()
                                .toList();
                if (!others.isEmpty()) {
                    throw new LocalRun.UsageException(
                            "--out "
                                    + dir
                                    + " holds files that are not a tfstream local output ("
                                    + String.join(
                                            ", ", others.subList(0, Math.min(3, others.size())))
                                    + "): give an empty or new directory");
                }
            } catch (IOException e) {
                throw new LocalRun.UsageException("--out " + dir + ": " + e.getMessage(), e);
            }
            return;
        }
        Path parent = dir.getParent();
        while (parent != null && !Files.exists(parent)) {
            parent = parent.getParent();
        }
        if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
            throw new LocalRun.UsageException(
                    "--out "
                            + dir
                            + " cannot be created: "
                            + parent
                            + " is not a writable directory");
        }
    }

    /** Removes a previous run's outputs, creates the directory. */
    static void prepare(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String name : OUTPUTS) {
            FileTrees.deleteQuietly(dir.resolve(name));
        }
    }
}
