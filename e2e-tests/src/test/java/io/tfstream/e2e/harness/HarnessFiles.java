package io.tfstream.e2e.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the harness's runs leave on disk: the finished shards' bytes, and the clean-up. */
final class HarnessFiles {
    private HarnessFiles() {}

    /** Bytes of the finished shards under {@code dir} (no manifests, markers or hidden files). */
    static long shardBytes(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(
                            p ->
                                    p.getFileName()
                                            .toString()
                                            .matches("[^._].*\\.tfrecord(\\.gz|\\.zz)?"))
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }
}
