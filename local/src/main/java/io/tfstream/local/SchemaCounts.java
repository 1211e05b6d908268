package io.tfstream.local;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.core.fs.FileSystem;

/**
 * The outputs of a run per schema fingerprint, for {@code summary.json}'s {@code schemas}: accepted
 * records and shards (from the shards' manifests), dead letters (their header) and payloads (their
 * {@code schema_fingerprint}).
 */
final class SchemaCounts {
    /** The counts of one fingerprint. */
    static final class Counts {
        long accepted;
        long deadLettered;
        long shards;
        long batches;
    }

    private final Map<String, Counts> byFingerprint = new TreeMap<>();

    Counts of(String fingerprint) {
        return byFingerprint.computeIfAbsent(
                fingerprint == null ? "" : fingerprint, f -> new Counts());
    }

    /** Adds each listed shard (relative to {@code outDir}, or a URI) by its manifest. */
    void addShards(ShardListing shards, Path outDir) throws IOException {
        for (String name : shards.names()) {
            String json = name.contains("://") ? readRemote(name) : readLocal(outDir, name);
            if (json == null) {
                continue; // shards.manifests: false
            }
            ShardManifest m = ShardManifest.fromJson(json);
            Counts c = of(m.schemaFingerprint());
            c.shards++;
            c.accepted += m.records();
        }
    }

    /** The manifest of shard URI {@code shard} on an object store, or null. */
    private static String readRemote(String shard) throws IOException {
        for (String c : ShardLayout.manifestCandidates(shard)) {
            org.apache.flink.core.fs.Path p = new org.apache.flink.core.fs.Path(c);
            FileSystem fs = p.getFileSystem();
            if (fs.exists(p)) {
                try (InputStream in = fs.open(p)) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        return null;
    }

    /** The manifest of shard {@code name} (relative to {@code outDir}) on disk, or null. */
    private static String readLocal(Path outDir, String name) throws IOException {
        java.util.Optional<Path> manifest = ShardLayout.findManifest(outDir.resolve(name));
        return manifest.isPresent() ? Files.readString(manifest.get()) : null;
    }

    /**
     * Writes one entry per schema in force during the run: {@code schemas} (fingerprint → the file
     * given on the command line, in the order they were in force; null for the built-in sample); a
     * schema that no output names (a refused next schema) is left out unless it is the first.
     */
    void write(ArrayNode into, LinkedHashMap<String, String> schemas) {
        boolean first = true;
        for (Map.Entry<String, String> s : schemas.entrySet()) {
            Counts c = byFingerprint.get(s.getKey());
            if (c == null && !first) {
                continue;
            }
            first = false;
            c = c == null ? new Counts() : c;
            ObjectNode e = into.addObject();
            e.put("fingerprint", s.getKey());
            e.put("path", s.getValue());
            e.put("accepted", c.accepted);
            e.put("dead_lettered", c.deadLettered);
            e.put("shards", c.shards);
            e.put("batches", c.batches);
        }
    }
}
