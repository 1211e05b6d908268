package io.tfstream.operators.shards.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
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

    private String target(String run, long counter) {
        return base.resolve("dt=1")
                .resolve(new ShardName("part", JOB, run, 0, counter, ".tfrecord").format())
                .toUri()
                .toString();
    }

    @Test
    void aRepeatedCommitIsANoOpAndAnotherFileIsNeverReplaced() throws Exception {
        RecoverableShardStore store = RecoverableShardStore.of(base.toUri().toString());
        String target = target("00000000000000aa", 0);
        ShardOutput out = store.open(target);
        out.write(bytes("mine"), 0, 4);
        byte[] closed = out.closeForCommit();
        store.commit(closed);
        store.commit(closed);
        assertArrayEquals(bytes("mine"), Files.readAllBytes(Path.of(java.net.URI.create(target))));

        String other = target("00000000000000aa", 1);
        Files.write(Path.of(java.net.URI.create(other)), bytes("committed by another history"));
        ShardOutput second = store.open(other);
        second.write(bytes("new"), 0, 3);
        byte[] closedOther = second.closeForCommit();
        IOException e = assertThrows(IOException.class, () -> store.commit(closedOther));
        assertTrue(e.getMessage().contains("not replacing another file"), e.getMessage());
        assertEquals(
                "committed by another history",
                Files.readString(Path.of(java.net.URI.create(other))));
    }

    @Test
    void aShardWhoseInProgressFileIsGoneIsLost() throws Exception {
        RecoverableShardStore store = RecoverableShardStore.of(base.toUri().toString());
        String target = target("00000000000000bb", 0);
        ShardOutput out = store.open(target);
        out.write(bytes("persisted"), 0, 9);
        byte[] persisted = out.persist();
        out.release();
        List<LeftoverUpload> left = Leftovers.listFiles(base.toUri().toString(), "part");
        assertEquals(1, left.size());
        assertEquals("00000000000000bb", left.get(0).shard().run());
        Leftovers.deleteFile(left.get(0));

        LostShardException e =
                assertThrows(LostShardException.class, () -> store.resume(persisted));
        assertEquals(new org.apache.flink.core.fs.Path(target).toString(), e.target());
    }

    @Test
    void leftoversListOnlyInProgressFilesOfShardNames() throws Exception {
        RecoverableShardStore store = RecoverableShardStore.of(base.toUri().toString());
        for (int i = 0; i < 3; i++) {
            ShardOutput out = store.open(target("00000000000000cc", i));
            out.write(bytes("x"), 0, 1);
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

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
