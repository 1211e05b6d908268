package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.e2e.tfrecord.TensorFlowRecordIo;
import io.tfstream.tfrecord.Compression;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The glob patterns docs/streaming-job.md gives for reading the shard directory, run through
 * TensorFlow's own {@code MatchingFiles} (what {@code tf.io.gfile.glob} and {@code
 * tf.data.Dataset.list_files} call) over the output of {@code tfstream local}, with and without
 * data splits: each pattern finds exactly the finished shards {@code summary.json} names, at every
 * depth where the pattern has a wildcard, and TensorFlow reads every file it finds. The traps the
 * docs warn of are shown to be real: {@code shards/*}{@code /*}{@code /*} also finds the metadata
 * tree's directories, and a bare {@code *} in a bucket directory finds a hidden in-progress file.
 */
class ShardGlobsProcessITCase {
    @TempDir Path dir;

    @Test
    void theDocumentedGlobsFindExactlyTheFinishedShards() throws Exception {
        Path out = run("plain", List.of());
        Path shards = out.resolve("shards");
        List<String> all = finished(out);
        assertTrue(all.size() >= 2, "shards in more than one bucket or subtask: " + all);
        for (String pattern :
                List.of("dt=*/hour=*/part-*", "*/*/part-*", "dt=*/*/part-*", "*/hour=*/part-*")) {
            assertEquals(all, tf(shards, pattern), pattern);
        }
        // one bucket, by name
        String oneBucket = all.get(0).substring(0, all.get(0).lastIndexOf('/'));
        List<String> inBucket = all.stream().filter(s -> s.startsWith(oneBucket + "/")).toList();
        assertEquals(inBucket, tf(out, oneBucket + "/part-*"));
        assertEquals(inBucket, tf(out, oneBucket + "/*"), "no metadata in a bucket directory");
        // the traps: the metadata tree at the depth of the buckets, a hidden in-progress file
        assertTrue(
                tf(shards, "*/*/*").stream().anyMatch(p -> p.startsWith("shards/_tfstream/")),
                "shards/*/*/* matches the metadata tree's directories");
        Path hidden = out.resolve(oneBucket).resolve(".part-0.tfrecord.inprogress.1f0e3c2a-0000");
        Files.write(hidden, new byte[] {1, 2, 3});
        assertTrue(
                tf(out, oneBucket + "/*").contains(oneBucket + "/" + hidden.getFileName()),
                "TensorFlow's * matches a leading '.'");
        assertEquals(inBucket, tf(out, oneBucket + "/part-*"));
        assertEquals(all, pythonLister(shards, ""), "tfstream.shards.files");
        for (String shard : all) {
            TensorFlowRecordIo.ReadResult r =
                    TensorFlowRecordIo.read(out.resolve(shard), Compression.NONE);
            assertNull(r.error(), "TensorFlow's reader on " + shard);
        }
        assertTrue(Files.isDirectory(shards.resolve("_tfstream")));
    }

    @Test
    void theDocumentedGlobsFindEachDataSplitsShards() throws Exception {
        Path out = run("splits", List.of("--set", "shards.splits=train:2,eval:1"));
        Path shards = out.resolve("shards");
        List<String> all = finished(out);
        List<String> train = all.stream().filter(s -> s.contains("/Split-train/")).toList();
        List<String> eval = all.stream().filter(s -> s.contains("/Split-eval/")).toList();
        assertFalse(train.isEmpty());
        assertFalse(eval.isEmpty());
        assertEquals(all.size(), train.size() + eval.size(), "every shard in a split: " + all);
        assertEquals(train, tf(shards, "dt=*/hour=*/Split-train/part-*"));
        assertEquals(train, tf(shards, "*/*/Split-train/part-*"));
        assertEquals(eval, tf(shards, "dt=*/*/Split-eval/part-*"));
        assertEquals(all, tf(shards, "*/*/*/part-*"));
        assertEquals(all, pythonLister(shards, ""), "tfstream.shards.files");
        assertEquals(train, pythonLister(shards, "train"), "tfstream.shards.files, split train");
        for (String shard : all) {
            assertTrue(shard.endsWith(".tfrecord.gz"), "gzip with data splits: " + shard);
            TensorFlowRecordIo.ReadResult r =
                    TensorFlowRecordIo.read(out.resolve(shard), Compression.GZIP);
            assertNull(r.error(), "TensorFlow's reader on " + shard);
        }
    }

    /**
     * What the Python client's {@code tfstream.shards.files(shards, split=...)} lists (all splits
     * for ""), relative to the output directory, in its order.
     */
    private static List<String> pythonLister(Path shards, String split) throws Exception {
        Path client = Path.of("").toAbsolutePath().getParent().resolve("python");
        String code =
                "import sys\n"
                        + "from tfstream import shards\n"
                        + "for f in shards.files(sys.argv[1], split=sys.argv[2] or None):\n"
                        + "    print(f.path)\n";
        ProcessBuilder pb =
                new ProcessBuilder(PYTHON, "-c", code, shards.toString(), split)
                        .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("PYTHONPATH", client.toString());
        Process p = pb.start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), printed);
        Path out = shards.getParent();
        return printed.lines().map(l -> out.relativize(Path.of(l)).toString()).toList();
    }

    private static final String PYTHON =
            System.getenv().getOrDefault("TFSTREAM_PYTHON", "/usr/bin/python3");

    /** Runs {@code tfstream local} into {@code dir/name}; returns the output directory. */
    private Path run(String name, List<String> extra) throws Exception {
        Path out = dir.resolve(name);
        List<String> cmd = CliJar.command();
        cmd.addAll(List.of("local", "--records", "2000", "--parallelism", "2"));
        cmd.addAll(List.of("--out", out.toString(), "--rest-port", "0"));
        cmd.addAll(extra);
        CliJar.runLocal(cmd, dir.resolve(name + ".out"), dir.resolve(name + ".err"));
        return out;
    }

    /** The finished shards of the run, relative to its output directory, sorted. */
    private static List<String> finished(Path out) throws Exception {
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        List<String> names = new ArrayList<>();
        summary.get("shards").forEach(s -> names.add(s.asText()));
        names.sort(null);
        return names;
    }

    /** TensorFlow's matches of {@code base/pattern}, relative to the output directory. */
    private static List<String> tf(Path base, String pattern) {
        Path out = base.getFileName().toString().equals("shards") ? base.getParent() : base;
        return TensorFlowRecordIo.matchingFiles(base.resolve(pattern).toString()).stream()
                .map(p -> out.relativize(Path.of(p)).toString())
                .sorted()
                .toList();
    }
}
