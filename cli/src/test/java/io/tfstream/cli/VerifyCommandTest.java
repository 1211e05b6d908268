package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardStats;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.MaskedCrc32c;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest {
    @TempDir Path dir;

    private final List<byte[]> records = List.of(new byte[10], new byte[20], new byte[30]);

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void intactFilesInEveryCompressionAreOk() throws IOException {
        Path plain = write("a.tfrecord", TfRecordTestData.write(records, Compression.NONE));
        Path gz = write("b.tfrecord.gz", TfRecordTestData.write(records, Compression.GZIP));
        Path zz = write("c.bin", TfRecordTestData.write(records, Compression.ZLIB));
        CliRun run = CliRun.of("verify", plain.toString(), gz.toString(), zz.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                plain
                        + ": 3 records, 108 bytes, none, ok\n"
                        + gz
                        + ": 3 records, "
                        + Files.size(gz)
                        + " bytes, gzip, ok\n"
                        + zz
                        + ": 3 records, "
                        + Files.size(zz)
                        + " bytes, zlib, ok\n",
                run.out());
        assertEquals("", run.err());
    }

    @Test
    void damagedFileIsLocatedAndTheOthersStillChecked() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        bytes[26 + 12 + 3] ^= 4; // inside the data of record 1, which starts at byte 26
        Path bad = write("bad.tfrecord", bytes);
        Path good = write("good.tfrecord", TfRecordTestData.write(records, Compression.NONE));
        MaskedCrc32c crc = new MaskedCrc32c();
        int computed = crc.maskedCrc(bytes, 26 + 12, 20);
        int stored = MaskedCrc32c.mask(crc.crc(new byte[20], 0, 20));
        CliRun run = CliRun.of("verify", bad.toString(), good.toString());
        assertEquals(1, run.exitCode());
        assertEquals(
                String.format(
                                "%s: damaged at byte 26 (record 1): data CRC mismatch: expected masked"
                                        + " CRC 0x%08x (stored), actual 0x%08x (computed)%n",
                                bad, stored, computed)
                        + good
                        + ": 3 records, 108 bytes, none, ok\n",
                run.out());
    }

    @Test
    void truncatedFileIsDamaged() throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        Path cut = write("cut.tfrecord", Arrays.copyOf(bytes, bytes.length - 1));
        CliRun run = CliRun.of("verify", cut.toString());
        assertEquals(1, run.exitCode());
        assertEquals(
                cut
                        + ": damaged at byte 62 (record 2): truncated record: 45 of 46 bytes (data"
                        + " length 30)\n",
                run.out());
    }

    @Test
    void forcedCompressionOverridesDetection() throws IOException {
        Path gz = write("x.tfrecord", TfRecordTestData.write(records, Compression.GZIP));
        CliRun forced = CliRun.of("verify", "--compression", "none", gz.toString());
        assertEquals(1, forced.exitCode());
        assertTrue(forced.out().startsWith(gz + ": damaged at byte 0 (record 0): "), forced.out());
        assertEquals(0, CliRun.of("verify", "--compression=GZIP", gz.toString()).exitCode());
    }

    @Test
    void missingFileIsUnreadableWithExitTwo() {
        Path missing = dir.resolve("nope.tfrecord");
        CliRun run = CliRun.of("verify", missing.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.outLines().length - 1);
        assertTrue(run.out().startsWith(missing + ": unreadable: "), run.out());
        assertEquals("tfstream verify: no such file: " + missing + "\n", run.err());
        assertEquals(missing + ": unreadable: no such file: " + missing + "\n", run.out());
    }

    @Test
    void recordAboveMaxRecordLengthIsDamage() throws IOException {
        Path file = write("a.tfrecord", TfRecordTestData.write(records, Compression.NONE));
        CliRun run = CliRun.of("verify", "--max-record-length", "25", file.toString());
        assertEquals(1, run.exitCode());
        assertEquals(
                file
                        + ": damaged at byte 62 (record 2): record length 30 exceeds"
                        + " maxRecordLength (25)\n",
                run.out());
        CliRun bad = CliRun.of("verify", "--max-record-length", "-1", file.toString());
        assertEquals(2, bad.exitCode());
        assertEquals("", bad.out());
        assertTrue(bad.err().contains("maxRecordLength must be in"), bad.err());
    }

    @Test
    void noFileIsAUsageError() {
        CliRun run = CliRun.of("verify");
        assertEquals(2, run.exitCode());
        assertEquals("", run.out());
        assertTrue(run.err().contains("Missing required parameter"), run.err());
    }

    @Test
    void jsonGivesOneObjectPerFile() throws IOException {
        Path ok = write("a.tfrecord", TfRecordTestData.write(records, Compression.NONE));
        byte[] full = TfRecordTestData.write(records, Compression.NONE);
        Path cut = write("b.tfrecord", Arrays.copyOf(full, full.length - 5));
        Path missing = dir.resolve("c.tfrecord");
        CliRun run =
                CliRun.of("verify", "--json", ok.toString(), cut.toString(), missing.toString());
        assertEquals(2, run.exitCode());
        String[] lines = run.out().split("\n");
        assertEquals(3, lines.length);
        assertEquals(
                "{\"file\":\""
                        + ok
                        + "\",\"status\":\"ok\",\"records\":3,\"bytes\":108,\"compression\":\"none\"}",
                lines[0]);
        assertTrue(
                lines[1].startsWith(
                        "{\"file\":\""
                                + cut
                                + "\",\"status\":\"damaged\",\"offset\":62,\"record\":2,\"reason\":\"truncated record"),
                lines[1]);
        assertEquals(
                "{\"file\":\""
                        + missing
                        + "\",\"status\":\"unreadable\",\"error\":\"no such file: "
                        + missing
                        + "\"}",
                lines[2]);
    }

    private Path shardWithManifest(String name, Compression c) throws IOException {
        return shardWithManifest(name, c, ShardLayout.INLINE);
    }

    /** A shard under {@code shards/} with its manifest where {@code layout} puts it. */
    private Path shardWithManifest(String name, Compression c, ShardLayout layout)
            throws IOException {
        Path bucket = Files.createDirectories(dir.resolve("shards/dt=2025-11-24"));
        byte[] bytes = TfRecordTestData.write(records, c);
        Path shard = bucket.resolve(name);
        Files.write(shard, bytes);
        ShardStats stats = new ShardStats();
        for (int i = 0; i < records.size(); i++) {
            stats.add("t", 0, i, records.get(i).length, 1000 + i);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        ShardManifest m =
                ShardManifest.of(
                        name, "dt=2025-11-24", stats, bytes.length, c, crc.getValue(), "f", 1);
        Path file =
                Path.of(
                        layout.manifestPath(
                                dir.resolve("shards").toString(), "dt=2025-11-24", name));
        Files.createDirectories(file.getParent());
        Files.writeString(file, m.toJson() + "\n");
        return shard;
    }

    @Test
    void shardsAreCheckedAgainstTheirManifests() throws IOException {
        Path a = shardWithManifest("part-a-0.tfrecord", Compression.NONE);
        // manifests in the metadata tree (today's layout) and beside the shard (the inline one)
        Path b = shardWithManifest("part-b-0.tfrecord.gz", Compression.GZIP, ShardLayout.SEPARATE);
        Path c = shardWithManifest("part-c-0.tfrecord.zz", Compression.ZLIB, ShardLayout.SEPARATE);
        // hidden parts and markers under the directory are left alone
        Files.write(a.resolveSibling(".part-d-0.tfrecord"), new byte[] {1});
        Files.write(a.resolveSibling("_SUCCESS"), new byte[] {1});
        CliRun run = CliRun.of("verify", "--manifest", dir.resolve("shards").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                a
                        + ": 3 records, 108 bytes, none, ok, matches its manifest\n"
                        + b
                        + ": 3 records, "
                        + Files.size(b)
                        + " bytes, gzip, ok, matches its manifest\n"
                        + c
                        + ": 3 records, "
                        + Files.size(c)
                        + " bytes, zlib, ok, matches its manifest\n",
                run.out());
    }

    @Test
    void aShardThatDiffersFromItsManifestOrHasNoneFails() throws IOException {
        Path a = shardWithManifest("part-a-0.tfrecord", Compression.NONE);
        // one more record appended after the manifest was written: a valid file, but not the shard
        Files.write(
                a,
                TfRecordTestData.write(List.of(new byte[5]), Compression.NONE),
                java.nio.file.StandardOpenOption.APPEND);
        Path lone = dir.resolve("shards/dt=2025-11-24/part-x-0.tfrecord");
        Files.write(lone, TfRecordTestData.write(records, Compression.NONE));
        CliRun run = CliRun.of("verify", "--manifest", "--json", a.toString(), lone.toString());
        assertEquals(1, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertEquals(
                "{\"file\":\""
                        + a
                        + "\",\"status\":\"mismatch\",\"problems\":[\"bytes: manifest 108, file 129\","
                        + "\"records: manifest 3, file 4\",\"record_bytes: manifest 60, file 65\","
                        + "\"crc32c: manifest ",
                lines[0].substring(0, lines[0].indexOf("crc32c: manifest ") + 17));
        assertEquals(
                "{\"file\":\""
                        + lone
                        + "\",\"status\":\"no_manifest\",\"manifest\":\""
                        + lone
                        + ".manifest.json\"}",
                lines[1]);
        CliRun text = CliRun.of("verify", "--manifest", a.toString());
        assertTrue(
                text.out().startsWith(a + ": differs from its manifest: bytes: manifest 108"),
                text.out());
    }
}
