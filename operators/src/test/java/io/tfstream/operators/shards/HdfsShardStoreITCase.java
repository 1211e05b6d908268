package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.operators.shards.store.LeftoverUpload;
import io.tfstream.operators.shards.store.Leftovers;
import io.tfstream.operators.shards.store.LostShardException;
import io.tfstream.operators.shards.store.RecoverableShardStore;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.operators.shards.store.ShardOutput;
import io.tfstream.operators.shards.store.UploadCleanup;
import io.tfstream.testkit.InProcessHdfs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recoverable shard store on {@code hdfs://} (HDFS in process), where a rename onto an existing
 * file is refused and Flink's Hadoop committer ignores that: a shard across a simulated failure, a
 * repeated commit, a shard resumed while its listed length lags its flushed bytes, a commit that
 * meets another file under its name, a lost in-progress file, a marker replaced, and the leftovers
 * of a crashed attempt listed and removed.
 */
class HdfsShardStoreITCase {
    private static final String JOB = "0123456789abcdef0123456789abcdef";

    @TempDir static Path dir;
    private static InProcessHdfs hdfs;

    @BeforeAll
    static void start() throws IOException {
        hdfs = InProcessHdfs.start(dir.resolve("hdfs"));
    }

    @AfterAll
    static void stop() {
        hdfs.close();
    }

    private static String target(String base, String run, int counter) {
        return base + "/dt=1/" + new ShardName("part", JOB, run, 0, counter, ".tfrecord").format();
    }

    @Test
    void aShardResumedAndCommittedOnceNeverReplacesAnotherFile() throws Exception {
        String base = hdfs.uri() + "/resume";
        RecoverableShardStore store = RecoverableShardStore.of(base);
        String target = target(base, "00000000000000aa", 0);
        ShardOutput out = store.open(target);
        out.write(bytes("first-"), 0, 6);
        byte[] persisted = out.persist();
        out.write(bytes("first job"), 0, 9); // the writer goes on, holding the file's lease

        // restored elsewhere (a second job, or a failover beside a TaskManager still writing):
        // the persisted bytes are read under the first writer's lease and copied
        String copy = target(base, "00000000000000a1", 0);
        ShardOutput again = store.resume(persisted, copy);
        assertEquals(copy, again.target());
        again.write(bytes("second"), 0, 6);
        byte[] closed = again.closeForCommit();
        store.commit(closed);
        store.commit(closed);
        assertArrayEquals(bytes("first-second"), read(copy));
        out.write(bytes(" goes on"), 0, 8);
        store.commit(out.closeForCommit());
        assertArrayEquals(bytes("first-first job goes on"), read(target));

        String taken = target(base, "00000000000000aa", 1);
        SuccessMarkers.writeWhole(
                new org.apache.flink.core.fs.Path(taken), "another history's file");
        ShardOutput other = store.open(taken);
        other.write(bytes("mine"), 0, 4);
        byte[] otherClosed = other.closeForCommit();
        IOException e = assertThrows(IOException.class, () -> store.commit(otherClosed));
        assertTrue(e.getMessage().contains("not replacing another file"), e.getMessage());
        assertEquals("another history's file\n", new String(read(taken), StandardCharsets.UTF_8));
    }

    /**
     * Persisted twice while its writer goes on: the NameNode lists the file's length as of the
     * first flush in its block, less than persisted, yet the flushed bytes are there to read. The
     * blue/green restore of a savepoint must copy them, not call the shard lost.
     */
    @Test
    void aShardPersistedAgainIsResumedAlthoughItsListedLengthLags() throws Exception {
        String base = hdfs.uri() + "/lag";
        RecoverableShardStore store = RecoverableShardStore.of(base);
        String target = target(base, "00000000000000cc", 0);
        ShardOutput out = store.open(target);
        out.write(bytes("one-"), 0, 4);
        out.persist();
        out.write(bytes("two-"), 0, 4);
        byte[] persisted = out.persist();
        out.write(bytes("first job"), 0, 9);
        List<LeftoverUpload> open = Leftovers.listFiles(base, "part");
        assertEquals(1, open.size());
        org.apache.flink.core.fs.Path inProgress =
                new org.apache.flink.core.fs.Path(open.get(0).uri());
        long listed = inProgress.getFileSystem().getFileStatus(inProgress).getLen();
        assertTrue(listed < 8, "the listed length lags the flushed bytes: " + listed);

        String copy = target(base, "00000000000000c1", 0);
        ShardOutput again = store.resume(persisted, copy);
        again.write(bytes("second"), 0, 6);
        store.commit(again.closeForCommit());
        assertArrayEquals(bytes("one-two-second"), read(copy));
        store.commit(out.closeForCommit());
        assertArrayEquals(bytes("one-two-first job"), read(target));
    }

    @Test
    void aMarkerIsReplacedAlthoughHdfsRefusesToRenameOntoIt() throws Exception {
        String marker = hdfs.uri() + "/markers/dt=1/_SUCCESS";
        SuccessMarkers.writeWhole(new org.apache.flink.core.fs.Path(marker), "{\"first\":1}");
        SuccessMarkers.writeWhole(new org.apache.flink.core.fs.Path(marker), "{\"second\":22}");
        assertEquals("{\"second\":22}\n", new String(read(marker), StandardCharsets.UTF_8));
        List<LeftoverUpload> left = Leftovers.listFiles(hdfs.uri() + "/markers", "part");
        assertEquals(List.of(), left);
        assertEquals(
                List.of("_SUCCESS"),
                List.of(
                        java.util.Arrays.stream(
                                        FileSystem.get(java.net.URI.create(hdfs.uri()))
                                                .listStatus(
                                                        new org.apache.flink.core.fs.Path(
                                                                hdfs.uri() + "/markers/dt=1")))
                                .map(s -> s.getPath().getName())
                                .toArray(String[]::new)),
                "no in-progress file of the marker left");
    }

    @Test
    void aCrashedAttemptsInProgressFileIsListedRemovedAndThenALostShard() throws Exception {
        Opened o = openAndPersist("crash", "00000000000000bb");
        String base = o.base();
        RecoverableShardStore store = o.store();
        byte[] persisted = o.persisted();
        o.out().release();
        String listing = cleanUploads(base, false);
        assertTrue(listing.contains("run 00000000000000bb"), listing);
        assertTrue(listing.contains(": 1 in-progress files"), listing);
        cleanUploads(base, true);
        assertEquals(List.of(), Leftovers.listFiles(base, "part"));
        assertThrows(
                LostShardException.class,
                () -> store.resume(persisted, target(base, "00000000000000b1", 0)));
    }

    /**
     * The DataNode holding an open shard's blocks is lost with the writer: the restore's copy
     * cannot read the in-progress file (still open for writing, the last block's length unknown),
     * and that is a lost shard naming the file and the cause, which {@code shards.on-lost-shard}
     * decides on, not a bare I/O error. With the DataNode back and the lease recovered (by the
     * NameNode after its hard limit, or by hand), the same restore reads it.
     */
    @Test
    void aShardWhoseDataNodeIsGoneIsLostUntilItIsBack() throws Exception {
        Opened o = openAndPersist("datanode", "00000000000000dd");
        String base = o.base();
        RecoverableShardStore store = o.store();
        ShardOutput out = o.out();
        byte[] persisted = o.persisted();
        String copy = target(base, "00000000000000d1", 0);
        hdfs.withoutDataNode(
                () -> {
                    LostShardException lost =
                            assertThrows(
                                    LostShardException.class, () -> store.resume(persisted, copy));
                    assertTrue(
                            lost.getMessage().contains("cannot be read: no datanode"),
                            lost.getMessage());
                    assertTrue(lost.getMessage().contains(".inprogress."), lost.getMessage());
                });
        // the DataNode back, the replica of the open block waits for recovery: the lease first
        org.apache.flink.core.fs.Path inProgress =
                new org.apache.flink.core.fs.Path(
                        Leftovers.listFiles(base, "part").stream()
                                .filter(u -> u.shard().run().equals("00000000000000dd"))
                                .findFirst()
                                .orElseThrow()
                                .uri());
        hdfs.recoverLease(inProgress.toUri().getPath());
        ShardOutput again = store.resume(persisted, target(base, "00000000000000d2", 0));
        store.commit(again.closeForCommit());
        assertArrayEquals(bytes("persisted"), read(target(base, "00000000000000d2", 0)));
        // the lost writer, its lease recovered, can write no more
        assertThrows(java.io.UncheckedIOException.class, out::release);
    }

    /** A store on HDFS directory {@code dir} and a shard of run {@code run} in it, persisted. */
    private record Opened(
            String base, RecoverableShardStore store, ShardOutput out, byte[] persisted) {}

    /** Opens shard 0 of run {@code run} under {@code /dir}, writes "persisted" and persists it. */
    private static Opened openAndPersist(String dir, String run) throws IOException {
        String base = hdfs.uri() + "/" + dir;
        RecoverableShardStore store = RecoverableShardStore.of(base);
        ShardOutput out = store.open(target(base, run, 0));
        out.write(bytes("persisted"), 0, 9);
        return new Opened(base, store, out, out.persist());
    }

    private static byte[] read(String uri) throws IOException {
        org.apache.flink.core.fs.Path p = new org.apache.flink.core.fs.Path(uri);
        try (InputStream in = p.getFileSystem().open(p)) {
            return in.readAllBytes();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** What {@code tfstream shards uploads} lists (or, with {@code abort}, aborts) under base. */
    private static String cleanUploads(String base, boolean abort) throws Exception {
        return UploadCleanup.run(
                        new UploadCleanup.Request(
                                base, "part", Duration.ZERO, null, abort, null, null),
                        Instant.now())
                .text();
    }
}
