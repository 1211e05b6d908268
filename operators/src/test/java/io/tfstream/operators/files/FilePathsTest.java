package io.tfstream.operators.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FilePaths}: files, directories and globs; hidden names skipped at every level. */
class FilePathsTest {
    @TempDir Path dir;

    private List<String> files(String... paths) throws Exception {
        FilePaths p = FilePaths.of(List.of(paths));
        return p.enumerator().create().enumerateSplits(p.bases(), 1).stream()
                .map(FileSourceSplit::path)
                .map(x -> dir.toUri().relativize(x.toUri()).toString())
                .sorted()
                .toList();
    }

    @Test
    void directoriesFilesAndGlobs() throws Exception {
        for (String f :
                List.of(
                        "dt=2026-11-01/a.tfrecord",
                        "dt=2026-11-01/b.tfrecord.gz",
                        "dt=2026-11-02/c.tfrecord",
                        "dt=2026-11-02/.inprogress.tfrecord",
                        "dt=2026-11-02/_SUCCESS",
                        "_tmp/d.tfrecord",
                        "e.tfrecord")) {
            Path p = dir.resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "x");
        }
        String base = dir.toUri().toString();
        assertEquals(
                List.of(
                        "dt=2026-11-01/a.tfrecord",
                        "dt=2026-11-01/b.tfrecord.gz",
                        "dt=2026-11-02/c.tfrecord",
                        "e.tfrecord"),
                files(base));
        assertEquals(List.of("e.tfrecord"), files(base + "e.tfrecord"));
        assertEquals(
                List.of("dt=2026-11-01/a.tfrecord", "dt=2026-11-02/c.tfrecord"),
                files(base + "dt=*/*.tfrecord"));
        assertEquals(List.of("dt=2026-11-01/b.tfrecord.gz"), files(dir + "/dt=2026-11-0[1]/*.gz"));
        // ** crosses directories; "**/" needs at least one.
        assertEquals(List.of("dt=2026-11-02/c.tfrecord"), files(base + "**/{c,e}.tfrecord"));
        // A file matched by two entries is read once; a missing path is no file.
        assertEquals(List.of("e.tfrecord"), files(base + "e.tfrecord", base + "*.tfrecord"));
        assertEquals(List.of(), files(base + "nope"));
    }

    @Test
    void aGlobNeedsAnAbsolutePath() {
        assertThrows(IllegalArgumentException.class, () -> FilePaths.parse("rel/*.tfrecord"));
        assertThrows(IllegalArgumentException.class, () -> FilePaths.parse(" "));
        assertThrows(IllegalArgumentException.class, () -> FilePaths.parse("/a/[b"));
    }
}
