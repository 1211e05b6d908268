package io.tfstream.operators.files;

import io.tfstream.shards.ShardManifest;
import io.tfstream.text.Quoted;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.FileSystems;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The files of {@code source.files.paths}: a file, a directory (read recursively) or a glob in the
 * last path segments ({@code *}, {@code ?}, {@code [..]}, {@code {a,b}} within a segment, {@code
 * **} across segments), on any Flink file system. Names starting with {@code .} or {@code _}
 * (in-progress and marker files) are skipped at every level, and so are shard manifests ({@code
 * *.manifest.json}).
 */
@Internal
public final class FilePaths implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One entry: the directory or file to list, and the glob its files must match (or null). */
    public record Entry(String base, String glob) implements Serializable {}

    private final List<Entry> entries;

    private FilePaths(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** The paths, each checked by {@link #parse}. */
    public static FilePaths of(List<String> paths) {
        List<Entry> e = new ArrayList<>();
        for (String p : paths) {
            e.add(parse(p));
        }
        return new FilePaths(e);
    }

    /** Splits {@code path} into the part to list and the glob; rejects what is no path. */
    public static Entry parse(String path) {
        Objects.requireNonNull(path, "path");
        if (path.isBlank()) {
            throw new IllegalArgumentException("empty path");
        }
        Path p = new Path(path);
        String scheme = p.toUri().getScheme();
        String pathPart = p.toUri().getPath();
        if (pathPart == null || pathPart.isEmpty()) {
            throw new IllegalArgumentException("no path in '" + Quoted.cut(path) + "'");
        }
        String[] segments = pathPart.split("/", -1);
        int firstGlob = -1;
        for (int i = 0; i < segments.length; i++) {
            if (segments[i].matches(".*[*?\\[{].*")) {
                firstGlob = i;
                break;
            }
        }
        if (firstGlob < 0) {
            return new Entry(path, null);
        }
        String baseDir = String.join("/", java.util.Arrays.copyOf(segments, firstGlob));
        if (baseDir.isEmpty()) {
            baseDir = "/";
        }
        String prefix = path.substring(0, path.indexOf(pathPart));
        FileSystems.getDefault().getPathMatcher("glob:" + pathPart); // checks the syntax
        if (scheme == null && !path.startsWith("/")) {
            throw new IllegalArgumentException("a glob needs an absolute path or a URI: " + path);
        }
        return new Entry(prefix + baseDir, pathPart);
    }

    /** The paths the file source lists (each entry's base). */
    public Path[] bases() {
        return entries.stream().map(e -> new Path(e.base())).distinct().toArray(Path[]::new);
    }

    /** An enumerator of one split per matching file; a file matched twice is read once. */
    public FileEnumerator.Provider enumerator() {
        List<Entry> copy = entries;
        return () -> new Enumerator(copy);
    }

    private static final class Enumerator implements FileEnumerator {
        private final List<Entry> entries;

        Enumerator(List<Entry> entries) {
            this.entries = entries;
        }

        @Override
        public Collection<FileSourceSplit> enumerateSplits(Path[] paths, int minDesiredSplits)
                throws IOException {
            java.util.Map<String, FileSourceSplit> splits = new java.util.TreeMap<>();
            for (Entry e : entries) {
                Path base = new Path(e.base());
                FileSystem fs = base.getFileSystem();
                PathMatcher glob =
                        e.glob() == null
                                ? null
                                : FileSystems.getDefault().getPathMatcher("glob:" + e.glob());
                FileStatus status;
                try {
                    status = fs.getFileStatus(base);
                } catch (java.io.FileNotFoundException missing) {
                    continue;
                }
                add(fs, status, glob, splits);
            }
            return new ArrayList<>(splits.values());
        }

        private static void add(
                FileSystem fs,
                FileStatus status,
                PathMatcher glob,
                java.util.Map<String, FileSourceSplit> splits)
                throws IOException {
            String name = status.getPath().getName();
            if (name.startsWith(".") || name.startsWith("_")) {
                return;
            }
            if (!status.isDir() && ShardManifest.isManifest(name)) {
                return; // the manifest beside a shard of the shard sink
            }
            if (status.isDir()) {
                FileStatus[] children = fs.listStatus(status.getPath());
                if (children != null) {
                    for (FileStatus c : children) {
                        add(fs, c, glob, splits);
                    }
                }
                return;
            }
            if (glob != null
                    && !glob.matches(java.nio.file.Path.of(status.getPath().toUri().getPath()))) {
                return;
            }
            String id = status.getPath() + "@" + status.getModificationTime();
            splits.putIfAbsent(
                    id,
                    new FileSourceSplit(
                            id,
                            status.getPath(),
                            0,
                            status.getLen(),
                            status.getModificationTime(),
                            status.getLen()));
        }
    }
}
