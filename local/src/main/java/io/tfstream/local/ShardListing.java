package io.tfstream.local;

import io.tfstream.shards.ShardManifest;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;

/**
 * The finished shards of a run, sorted by name, and the records in them: names not starting with
 * '.' or '_' (parts in progress, markers), manifests left out.
 *
 * @param names paths relative to {@code --out} on disk, URIs on an object store
 */
record ShardListing(List<String> names, long records) {

    /** The shards under {@code dir}, named relative to its parent ({@code shards/...}). */
    static ShardListing onDisk(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return new ShardListing(List.of(), 0);
        }
        List<Path> shards;
        try (Stream<Path> all = Files.walk(dir)) {
            shards =
                    all.filter(Files::isRegularFile)
                            .filter(p -> !hidden(dir.relativize(p)))
                            .filter(p -> !ShardManifest.isManifest(p.getFileName().toString()))
                            .sorted()
                            .toList();
        }
        List<String> names = new ArrayList<>();
        long records = 0;
        for (Path p : shards) {
            names.add(dir.getParent().relativize(p).toString());
            try (TfRecordReader r = TfRecordFiles.openReader(p, TfRecordReadOptions.defaults())) {
                records += count(r);
            }
        }
        return new ShardListing(names, records);
    }

    /** The shards under {@code base} on an object store, through Flink's file system. */
    static ShardListing onObjectStore(String base) throws IOException {
        org.apache.flink.core.fs.Path root = new org.apache.flink.core.fs.Path(base);
        FileSystem fs = root.getFileSystem();
        List<org.apache.flink.core.fs.Path> shards = new ArrayList<>();
        collect(fs, root, shards);
        // Flink's Path is not Comparable: sort by the names summary.json lists.
        shards.sort(Comparator.comparing(p -> p.toUri().toString()));
        List<String> names = new ArrayList<>();
        long records = 0;
        for (org.apache.flink.core.fs.Path p : shards) {
            names.add(p.toUri().toString());
            try (InputStream in = fs.open(p);
                    TfRecordReader r =
                            TfRecordReader.open(in, p.toString(), TfRecordReadOptions.defaults())) {
                records += count(r);
            }
        }
        return new ShardListing(names, records);
    }

    private static long count(TfRecordReader r) throws IOException {
        long n = 0;
        while (r.next()) {
            n++;
        }
        return n;
    }

    private static boolean hidden(Path relative) {
        for (Path part : relative) {
            if (hidden(part.toString())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hidden(String name) {
        return name.startsWith(".") || name.startsWith("_");
    }

    private static void collect(
            FileSystem fs,
            org.apache.flink.core.fs.Path dir,
            List<org.apache.flink.core.fs.Path> into)
            throws IOException {
        FileStatus[] entries;
        try {
            entries = fs.listStatus(dir);
        } catch (FileNotFoundException e) {
            return;
        }
        if (entries == null) {
            return;
        }
        for (FileStatus s : entries) {
            String n = s.getPath().getName();
            if (hidden(n)) {
                continue;
            }
            if (s.isDir()) {
                collect(fs, s.getPath(), into);
            } else if (!ShardManifest.isManifest(n)) {
                into.add(s.getPath());
            }
        }
    }
}
