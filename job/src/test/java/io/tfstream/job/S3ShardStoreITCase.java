package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.local.S3ProxyProcess;
import io.tfstream.operators.shards.store.RestoreScope;
import io.tfstream.operators.shards.store.S3ShardStore;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.operators.shards.store.ShardOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link S3ShardStore} against S3Proxy as a process: a shard of several parts across a simulated
 * failure, commits repeated, the restore sweep, and that nothing but committed shards is ever left,
 * neither as objects nor as multipart uploads (nor as S3Proxy's hidden part files).
 */
class S3ShardStoreITCase {
    private static final int MIB = 1024 * 1024;
    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final String OTHER_JOB = "fedcba9876543210fedcba9876543210";

    @TempDir static Path dir;
    private static S3ProxyProcess proxy;
    private static Path credentials;

    private String bucket;
    private S3ShardStoreFactory factory;
    private S3Client s3;

    @BeforeAll
    static void startS3Proxy() throws Exception {
        proxy = S3ProxyProcess.start(dir);
        credentials = S3ProxyProcess.writeCredentials(dir.resolve("s3.properties"));
    }

    @AfterAll
    static void stopS3Proxy() {
        proxy.close();
    }

    @BeforeEach
    void bucketPerTest(TestInfo test) throws IOException {
        bucket = test.getTestMethod().orElseThrow().getName().toLowerCase(java.util.Locale.ROOT);
        proxy.createBucket(bucket);
        factory =
                new S3ShardStoreFactory(
                        "s3://" + bucket + "/shards",
                        "part",
                        proxy.endpoint(),
                        true,
                        null,
                        credentials.toString(),
                        S3ShardStoreFactory.DEFAULT_PART_SIZE);
        s3 = factory.newClient();
    }

    @AfterEach
    void closeClient() {
        s3.close();
    }

    @Test
    void aShardOfSeveralPartsSurvivesAFailureAndCommitsOnce() throws Exception {
        byte[] data = random(12 * MIB, 1);
        String target = target(1, 0, 0);
        byte[] persisted;
        try (S3ShardStore first = factory.create()) {
            ShardOutput out = first.open(target);
            write(out, data, 0, 7 * MIB);
            persisted = out.persist();
            // The attempt goes on past the checkpoint, uploads parts 2 and 3, then dies.
            write(out, random(9 * MIB, 2), 0, 9 * MIB);
            assertEquals(16 * MIB, out.size());
        }
        assertEquals(1, uploads().size(), "the persisted upload stays open");

        byte[] closed;
        try (S3ShardStore second = factory.create()) {
            ShardOutput out = second.resume(persisted);
            assertEquals(7 * MIB, out.size());
            write(out, data, 7 * MIB, 5 * MIB);
            out.persist();
            closed = out.closeForCommit();
            assertEquals(target, second.targetOf(closed));
        }
        assertEquals(List.of(), objects(), "nothing is visible before the commit");

        try (S3ShardStore committer = factory.create()) {
            assertEquals(target, committer.commit(closed));
            assertEquals(target, committer.commit(closed), "a repeated commit succeeds");
        }
        try (S3ShardStore again = factory.create()) {
            again.commit(closed);
        }
        assertArrayEquals(data, read(target));
        // A repeated commit recognises the object by this ETag where metadata is not kept.
        HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(key(target)));
        assertEquals("\"" + multipartEtag(data, 5 * MIB, 5 * MIB, 2 * MIB) + "\"", head.eTag());
        assertEquals(List.of(key(target)), objects());
        assertEquals(List.of(), uploads());
        assertNoPartFilesLeft();
    }

    @Test
    void anEmptyShardIsCommittedAsAnEmptyObject() throws Exception {
        String target = target(1, 0, 1);
        try (S3ShardStore store = factory.create()) {
            byte[] closed = store.open(target).closeForCommit();
            store.commit(closed);
            store.commit(closed);
        }
        assertEquals(0, read(target).length);
        assertEquals(List.of(key(target)), objects());
    }

    @Test
    void aSmallShardIsOneShortPart() throws Exception {
        byte[] data = random(1000, 3);
        String target = target(1, 0, 2);
        try (S3ShardStore store = factory.create()) {
            ShardOutput out = store.open(target);
            write(out, data, 0, data.length);
            byte[] closed = store.resume(out.persist()).closeForCommit();
            out.release();
            store.commit(closed);
        }
        assertArrayEquals(data, read(target));
        assertEquals(List.of(), uploads());
        assertNoPartFilesLeft();
    }

    @Test
    void theRestoreSweepAbortsExactlyTheUploadsInScope() throws Exception {
        Set<String> all = new TreeSet<>();
        for (String job : List.of(JOB, OTHER_JOB)) {
            for (long epoch = 5; epoch <= 7; epoch++) {
                for (int subtask = 0; subtask < 4; subtask++) {
                    all.add(key(target(job, epoch, subtask, 0)));
                }
            }
        }
        all.add("shards/dt=1/unrelated-upload");
        all.add("elsewhere/" + new ShardName("part", JOB, 9, 1, 0, ".tfrecord"));
        for (String key : all) {
            s3.createMultipartUpload(b -> b.bucket(bucket).key(key));
        }
        try (S3ShardStore store = factory.create()) {
            store.cleanUpAfterRestore(new RestoreScope(JOB, 5, 1, 2));
        }
        Set<String> aborted = new TreeSet<>();
        for (long epoch = 6; epoch <= 7; epoch++) {
            for (int subtask : new int[] {1, 3}) {
                aborted.add(key(target(JOB, epoch, subtask, 0)));
            }
        }
        Set<String> expected = new TreeSet<>(all);
        expected.removeAll(aborted);
        assertEquals(expected, new TreeSet<>(uploadKeys()));

        for (MultipartUpload u : uploads()) {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(u.key()).uploadId(u.uploadId()));
        }
        assertNoPartFilesLeft();
    }

    @Test
    void aCommitOfAnAbortedUploadFailsClearly() throws Exception {
        String target = target(3, 1, 0);
        byte[] closed;
        try (S3ShardStore store = factory.create()) {
            ShardOutput out = store.open(target);
            write(out, random(6 * MIB, 4), 0, 6 * MIB);
            closed = out.closeForCommit();
            store.cleanUpAfterRestore(new RestoreScope(JOB, 2, 1, 2));
            IOException e = assertThrows(IOException.class, () -> store.commit(closed));
            assertTrue(e.getMessage().contains("no longer exists"), e.getMessage());
        }
        assertEquals(List.of(), objects());
        assertEquals(List.of(), uploads());
    }

    @Test
    void closingAStoreAbortsOnlyUploadsNoCheckpointHolds() throws Exception {
        String kept = target(1, 0, 0);
        String dropped = target(1, 0, 1);
        try (S3ShardStore store = factory.create()) {
            ShardOutput a = store.open(kept);
            write(a, random(6 * MIB, 5), 0, 6 * MIB);
            a.persist();
            ShardOutput b = store.open(dropped);
            write(b, random(6 * MIB, 6), 0, 6 * MIB);
        }
        assertEquals(List.of(key(kept)), uploadKeys());
    }

    @Test
    void neverCompletesOverAnObjectWithOtherBytes() throws Exception {
        String target = target(1, 0, 0);
        s3.putObject(b -> b.bucket(bucket).key(key(target)), RequestBody.fromString("other"));
        try (S3ShardStore store = factory.create()) {
            ShardOutput out = store.open(target);
            write(out, random(100, 7), 0, 100);
            byte[] closed = out.closeForCommit();
            IOException e = assertThrows(IOException.class, () -> store.commit(closed));
            assertTrue(e.getMessage().contains("already exists with other bytes"), e.getMessage());
        }
        assertEquals("other", new String(read(target), java.nio.charset.StandardCharsets.UTF_8));
    }

    private String target(long epoch, int subtask, long counter) {
        return target(JOB, epoch, subtask, counter);
    }

    private String target(String job, long epoch, int subtask, long counter) {
        return "s3://"
                + bucket
                + "/shards/dt=1/"
                + new ShardName("part", job, epoch, subtask, counter, ".tfrecord").format();
    }

    private String key(String target) {
        return target.substring(("s3://" + bucket + "/").length());
    }

    private byte[] read(String target) {
        return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key(target))).asByteArray();
    }

    private List<String> objects() {
        return s3.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream()
                .map(S3Object::key)
                .collect(Collectors.toList());
    }

    private List<MultipartUpload> uploads() {
        return s3.listMultipartUploads(b -> b.bucket(bucket)).uploads();
    }

    private List<String> uploadKeys() {
        return uploads().stream().map(MultipartUpload::key).sorted().collect(Collectors.toList());
    }

    /** S3Proxy's filesystem backend keeps multipart state as hidden .mpus-* files in the bucket. */
    private void assertNoPartFilesLeft() throws IOException {
        try (Stream<Path> files = Files.walk(proxy.bucketDir(bucket))) {
            List<Path> left =
                    files.filter(p -> p.getFileName().toString().startsWith(".mpus-")).toList();
            assertEquals(List.of(), left);
        }
    }

    /** Writes in odd-sized pieces, so part boundaries fall inside writes. */
    private static void write(ShardOutput out, byte[] data, int off, int len) throws IOException {
        int end = off + len;
        while (off < end) {
            int n = Math.min(100_003, end - off);
            out.write(data, off, n);
            off += n;
        }
    }

    private static String multipartEtag(byte[] data, int... partSizes) throws Exception {
        MessageDigest all = MessageDigest.getInstance("MD5");
        int off = 0;
        for (int size : partSizes) {
            MessageDigest part = MessageDigest.getInstance("MD5");
            part.update(data, off, size);
            all.update(part.digest());
            off += size;
        }
        return HexFormat.of().formatHex(all.digest()) + "-" + partSizes.length;
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return Arrays.copyOf(b, size);
    }
}
