package io.tfstream.operators.shards.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recoverable store on {@code file://}: a commit never replaces another file under its name, a
 * shard whose in-progress file is gone is a lost shard, and what a crashed attempt leaves is found
 * and removed by {@link Leftovers} (what {@code tfstream shards uploads} runs).
 */
class RecoverableShardStoreTest {
    private static final String JOB = "0123456789abcdef0123456789abcdef";

    @TempDir Path base;

    private RecoverableShardStore store;

    @BeforeEach
    void openStore() throws IOException {
        store = RecoverableShardStore.of(base.toUri().toString());
    }

    private String target(String run, long counter) {
        return base.resolve("dt=1")
                .resolve(new ShardName("part", JOB, run, 0, counter, ".tfrecord").format())
                .toUri()
                .toString();
    }

    @Test
    void aRepeatedCommitIsANoOpAndAnotherFileIsNeverReplaced() throws Exception {
        String target = target("00000000000000aa", 0);
        ShardOutput out = openWith(store, target, "mine");
        byte[] closed = out.closeForCommit();
        store.commit(closed);
        store.commit(closed);
        assertArrayEquals(bytes("mine"), Files.readAllBytes(Path.of(java.net.URI.create(target))));

        String other = target("00000000000000aa", 1);
        Files.write(Path.of(java.net.URI.create(other)), bytes("committed by another history"));
        ShardOutput second = openWith(store, other, "new");
        byte[] closedOther = second.closeForCommit();
        IOException e = assertThrows(IOException.class, () -> store.commit(closedOther));
        assertTrue(e.getMessage().contains("not replacing another file"), e.getMessage());
        assertEquals(
                "committed by another history",
                Files.readString(Path.of(java.net.URI.create(other))));
    }

    @Test
    void aShardWhoseInProgressFileIsGoneIsLost() throws Exception {
        String target = target("00000000000000bb", 0);
        Crashed crashed = crashedWith(target);
        assertEquals("00000000000000bb", crashed.inProgress().shard().run());
        Leftovers.deleteFile(crashed.inProgress());

        LostShardException e =
                assertThrows(
                        LostShardException.class,
                        () -> store.resume(crashed.persisted(), target("00000000000000b1", 0)));
        assertEquals(target, e.target());
    }

    /** An in-progress file cut short of its persisted bytes: lost, not resumed with less. */
    @Test
    void aShardWhoseInProgressFileIsShorterThanPersistedIsLost() throws Exception {
        String target = target("00000000000000cc", 0);
        Crashed crashed = crashedWith(target);
        Path inProgress = Path.of(java.net.URI.create(crashed.inProgress().uri()));
        try (var channel =
                java.nio.channels.FileChannel.open(inProgress, StandardOpenOption.WRITE)) {
            channel.truncate(3);
        }

        String copy = target("00000000000000c1", 0);
        LostShardException e =
                assertThrows(
                        LostShardException.class, () -> store.resume(crashed.persisted(), copy));
        assertEquals(target, e.target());
        assertTrue(e.getMessage().contains("ended after 3 of 9 bytes"), e.getMessage());
    }

    /**
     * A savepoint restored into a second job while the first keeps writing: the restored writer
     * goes on in a copy, so each history's shard holds its own bytes after the common prefix; the
     * same when the first job committed the shard before the restore.
     */
    @Test
    void twoWritersRestoredFromOneSnapshotNeverShareAFile() throws Exception {
        String first = target("00000000000000dd", 0);
        ShardOutput out = openWith(store, first, "common|");
        byte[] persisted = out.persist();
        out.write(bytes("first job"), 0, 9);

        String copy = target("00000000000000ee", 0);
        ShardOutput restored = store.resume(persisted, copy);
        assertEquals(copy, restored.target());
        assertEquals(7, restored.size());
        restored.write(bytes("second job"), 0, 10);
        out.write(bytes(" goes on"), 0, 8);
        store.commit(out.closeForCommit());
        store.commit(restored.closeForCommit());
        assertEquals("common|first job goes on", read(first));
        assertEquals("common|second job", read(copy));

        // the original is committed (renamed) already: its prefix is read from the shard itself
        String late = target("00000000000000ff", 0);
        ShardOutput again = store.resume(persisted, late);
        again.write(bytes("third"), 0, 5);
        store.commit(again.closeForCommit());
        assertEquals("common|third", read(late));
    }

    /** After a failover the persisted in-progress file stays as it was: a snapshot may hold it. */
    @Test
    void aResumeLeavesTheOriginalInProgressFileUntouched() throws Exception {
        ShardOutput out = openWith(store, target("0000000000000011", 0), "kept");
        byte[] persisted = out.persist();
        out.write(bytes(" and a crashed attempt's tail"), 0, 29);
        out.release();

        ShardOutput restored = store.resume(persisted, target("0000000000000022", 0));
        restored.write(bytes("!"), 0, 1);
        store.commit(restored.closeForCommit());
        assertEquals("kept!", read(target("0000000000000022", 0)));
        List<LeftoverUpload> left = Leftovers.listFiles(base.toUri().toString(), "part");
        assertEquals(
                List.of("0000000000000011"),
                left.stream().map(u -> u.shard().run()).toList(),
                "the original, listed for tfstream shards uploads");
        for (LeftoverUpload u : left) {
            Leftovers.deleteFile(u);
        }
        // a restore of the same snapshot again meets a lost shard
        assertThrows(
                LostShardException.class,
                () -> store.resume(persisted, target("0000000000000033", 0)));
    }

    /**
     * A shard's snapshot and its one in-progress file, as a writer that crashed after it leaves.
     */
    private record Crashed(byte[] persisted, LeftoverUpload inProgress) {}

    /** Opens {@code target}, persists "persisted" in it and lets the writer go, as a crash does. */
    private Crashed crashedWith(String target) throws Exception {
        ShardOutput out = openWith(store, target, "persisted");
        byte[] persisted = out.persist();
        out.release();
        List<LeftoverUpload> left = Leftovers.listFiles(base.toUri().toString(), "part");
        assertEquals(1, left.size());
        return new Crashed(persisted, left.get(0));
    }

    private static String read(String target) throws IOException {
        return Files.readString(Path.of(java.net.URI.create(target)));
    }

    @Test
    void leftoversListOnlyInProgressFilesOfShardNames() throws Exception {
        for (int i = 0; i < 3; i++) {
            ShardOutput out = openWith(store, target("00000000000000cc", i), "x");
            out.persist();
            out.release(); // a crashed attempt: the in-progress files stay
        }
        Path dir = base.resolve("dt=1");
        Files.writeString(dir.resolve(".other.inprogress.1"), "not a shard");
        Files.writeString(dir.resolve("part-notashard.tfrecord"), "x");
        assertEquals(3, Leftovers.listFiles(base.toUri().toString(), "part").size());
        for (LeftoverUpload u : Leftovers.listFiles(base.toUri().toString(), "part")) {
            Leftovers.deleteFile(u);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(
                    List.of(".other.inprogress.1", "part-notashard.tfrecord"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals(
                java.util.Optional.empty(),
                Leftovers.inProgressShard("part-" + JOB + "-1-0-0.tfrecord", "part"),
                "a committed shard is no leftover");
    }

    /** A new shard {@code target} holding {@code text} so far. */
    private static ShardOutput openWith(ShardStore store, String target, String text)
            throws IOException {
        ShardOutput out = store.open(target);
        out.write(bytes(text), 0, text.length());
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
