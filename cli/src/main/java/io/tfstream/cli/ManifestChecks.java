package io.tfstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardManifestCheck;
import io.tfstream.tfrecord.CorruptRecordException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@code tfstream verify --manifest}: shards against the manifests the shard sink wrote. */
final class ManifestChecks {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ManifestChecks() {}

    /**
     * The files to check: each file as given, and for a directory every shard under it (regular
     * files whose names do not start with '.' or '_' and are not manifests), sorted.
     */
    static List<Path> shardsOf(List<Path> files) throws IOException {
        List<Path> shards = new ArrayList<>();
        for (Path f : files) {
            if (!Files.isDirectory(f)) {
                shards.add(f);
                continue;
            }
            try (Stream<Path> all = Files.walk(f)) {
                all.filter(Files::isRegularFile)
                        .filter(p -> visible(f.relativize(p)))
                        .filter(p -> !ShardManifest.isManifest(p.getFileName().toString()))
                        .sorted()
                        .forEach(shards::add);
            } catch (IOException e) {
                throw new IOException(FileErrors.describe(f, e), e);
            }
        }
        return shards;
    }

    private static boolean visible(Path relative) {
        for (Path part : relative) {
            String n = part.toString();
            if (n.startsWith(".") || n.startsWith("_")) {
                return false;
            }
        }
        return true;
    }

    /**
     * The manifest of {@code shard}: beside it (the inline layout) or in the metadata tree of the
     * base path above it; the place beside it when there is none.
     */
    static Path manifestOf(Path shard) {
        return ShardLayout.findManifest(shard)
                .map(f -> shard.isAbsolute() ? f : Path.of("").toAbsolutePath().relativize(f))
                .orElse(
                        shard.resolveSibling(
                                ShardManifest.fileNameOf(shard.getFileName().toString())));
    }

    /** Checks {@code shard} against its manifest and prints one line; returns the exit code. */
    static int verify(Path shard, boolean json, PrintWriter out, PrintWriter err) {
        ObjectNode line = JSON.createObjectNode().put("file", shard.toString());
        Path file = manifestOf(shard);
        ShardManifest m;
        try {
            m = ShardManifest.fromJson(Files.readString(file));
        } catch (NoSuchFileException e) {
            out.println(
                    json
                            ? line.put("status", "no_manifest").put("manifest", file.toString())
                            : shard
                                    + ": no manifest ("
                                    + file
                                    + ", or in a "
                                    + ShardLayout.METADATA_DIR
                                    + " tree above it)");
            return ExitCodes.DATA_ERROR;
        } catch (IOException e) {
            return VerifyCommand.unreadable(
                    line, shard, FileErrors.describe(file, e), json, out, err);
        }
        List<String> problems;
        try (InputStream in = Files.newInputStream(shard)) {
            problems = ShardManifestCheck.check(in, shard.toString(), m);
        } catch (CorruptRecordException e) {
            return VerifyCommand.damaged(line, shard, e, json, out);
        } catch (IOException e) {
            return VerifyCommand.unreadable(
                    line, shard, FileErrors.describe(shard, e), json, out, err);
        }
        if (!problems.isEmpty()) {
            if (json) {
                ArrayNode list = line.put("status", "mismatch").putArray("problems");
                problems.forEach(list::add);
                out.println(line);
            } else {
                out.println(shard + ": differs from its manifest: " + String.join("; ", problems));
            }
            return ExitCodes.DATA_ERROR;
        }
        String compression = m.compression().name().toLowerCase(java.util.Locale.ROOT);
        out.println(
                json
                        ? line.put("status", "ok")
                                .put("records", m.records())
                                .put("bytes", m.bytes())
                                .put("compression", compression)
                                .put("manifest", "ok")
                        : shard
                                + ": "
                                + m.records()
                                + " records, "
                                + m.bytes()
                                + " bytes, "
                                + compression
                                + ", ok, matches its manifest");
        return ExitCodes.OK;
    }
}
