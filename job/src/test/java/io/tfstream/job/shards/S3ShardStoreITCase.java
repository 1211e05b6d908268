package io.tfstream.job.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.operators.shards.store.LostShardException;
import io.tfstream.operators.shards.store.S3AccessProbe;
import io.tfstream.operators.shards.store.S3Encryption;
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
 * failure, commits repeated, what a crashed attempt leaves (never aborted by a restore, listed and
 * aborted by {@code tfstream shards uploads}), lost uploads, two jobs in one upload, the start-up
 * probe, and that nothing but committed shards is left once the leftovers are aborted.
 */
class S3ShardStoreITCase {
    private static final int MIB = 1024 * 1024;
    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final String OTHER_JOB = "fedcba9876543210fedcba9876543210";
    private static final String RUN = "00c0ffee00c0ffee";

    @TempDir static Path dir;
    private static S3ProxyProcess proxy;
    private static Path credentials;

    private String bucket;
    private S3ShardStoreFactory factory;
    private S3Client s3;

    @BeforeAll
    static void startS3Proxy() throws Exception {
        proxy = S3ProxyProcess.start(dir);
        credentials = proxy.writeCredentials(dir.resolve("s3.properties"));
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
                ShardRunChecks.s3ProxyStore(
                        "s3://" + bucket + "/shards", proxy.endpoint(), credentials);
        s3 = factory.newClient();
    }

    @AfterEach
    void closeClient() {
        s3.close();
    }

    @Test
    void aShardOfSeveralPartsSurvivesAFailureAndCommitsOnce() throws Exception {
        byte[] data = random(12 * MIB, 1);
        String target = target(RUN, 0, 0);
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
            ShardOutput out = second.resume(persisted, target);
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
        String target = target(RUN, 0, 1);
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
        String target = target(RUN, 0, 2);
        try (S3ShardStore store = factory.create()) {
            ShardOutput out = store.open(target);
            write(out, data, 0, data.length);
            byte[] closed = store.resume(out.persist(), target).closeForCommit();
            out.release();
            store.commit(closed);
        }
        assertArrayEquals(data, read(target));
        assertEquals(List.of(), uploads());
        assertNoPartFilesLeft();
    }

    /**
     * A shard opened before a checkpoint with less than a part, its first part filled after it, the
     * attempt killed (no close): the restored writer aborts nothing, the crashed attempt's upload
     * is listed by {@code tfstream shards uploads} with its job and run, and gone after {@code
     * --abort}; the restored shard commits whole.
     */
    @Test
    void anUploadCreatedAfterTheCheckpointIsLeftListedAndAbortedByTheCli() throws Exception {
        byte[] data = random(8 * MIB, 11);
        String target = target(RUN, 0, 0);
        S3ShardStore crashed = factory.create();
        byte[] persisted = persistedThenAPartFilled(crashed, target, data, 12);

        byte[] closed;
        try (S3ShardStore restored = factory.create()) {
            ShardOutput out = restored.resume(persisted, target);
            write(out, data, MIB, 7 * MIB);
            closed = out.closeForCommit();
            restored.commit(closed);
        }
        assertArrayEquals(data, read(target));
        List<MultipartUpload> left = uploads();
        assertEquals(1, left.size(), "the crashed attempt's upload is left, not aborted");

        String base = "s3://" + bucket + "/shards";
        String listing = uploads(base);
        assertTrue(listing.contains("job " + JOB + "  run " + RUN), listing);
        assertTrue(listing.contains("upload " + left.get(0).uploadId()), listing);
        assertTrue(listing.contains(base + ": 1 incomplete uploads"), listing);
        assertTrue(
                uploads(base, "--older-than", "1 h").contains(": 0 incomplete uploads"),
                "younger than an hour");
        String aborted = uploads(base, "--older-than", "0s", "--abort");
        assertTrue(aborted.contains("1 incomplete uploads, 1 aborted"), aborted);
        assertEquals(List.of(), uploads());
        assertArrayEquals(data, read(target), "the committed shard is untouched");
        assertNoPartFilesLeft();
        crashed.close();
    }

    /**
     * Opens {@code target} in {@code store}, writes the first MiB of {@code data} and persists it
     * (less than a part: no upload at the checkpoint), then writes 6 MiB more (random, {@code
     * seed}): a part fills after the checkpoint and gets an upload. The writer is then left as a
     * kill leaves it, nothing closed; returns the checkpoint's bytes.
     */
    private byte[] persistedThenAPartFilled(
            S3ShardStore store, String target, byte[] data, long seed) throws Exception {
        ShardOutput first = store.open(target);
        write(first, data, 0, MIB);
        byte[] persisted = first.persist();
        assertEquals(List.of(), uploads(), "less than a part: no upload at the checkpoint");
        write(first, random(6 * MIB, seed), 0, 6 * MIB);
        assertEquals(1, uploads().size());
        return persisted;
    }

    /**
     * A failover of the job's own shard (no savepoint note) first discards what earlier attempts
     * stored for it after the checkpoint: the upload it got when its first part filled later is
     * aborted, and the shard resumed from the checkpoint commits whole. Before, that upload was
     * left behind at every such failover.
     */
    @Test
    void aFailoverDiscardsTheUploadAShardGotAfterTheCheckpoint() throws Exception {
        byte[] data = random(8 * MIB, 13);
        S3ShardStore crashed = factory.create();
        byte[] persisted = persistedThenAPartFilled(crashed, target(RUN, 0, 1), data, 14);

        try (S3ShardStore restored = factory.create()) {
            restored.discardAfter(persisted);
            assertEquals(List.of(), uploads(), "the upload of the killed attempt aborted");
            ShardOutput out = restored.resume(persisted, target(RUN, 0, 2));
            write(out, data, MIB, 7 * MIB);
            restored.commit(out.closeForCommit());
        }
        assertArrayEquals(data, read(target(RUN, 0, 2)));
        assertEquals(List.of(), uploads());
        assertNoPartFilesLeft();
        crashed.close();
    }

    /**
     * A stalled writer (a zombie TaskManager, past the heartbeat timeout) comes back after a
     * failover restored its shard and uploads the part it numbered next: the restored writer
     * numbered its parts past a gap, so nothing of its is replaced and its commit completes with
     * its own bytes. Before, both numbered that part 2, the zombie's replaced the restored one's,
     * and the commit failed as a lost shard on every retry.
     */
    @Test
    void aZombieWriterReplacesNoPartOfTheShardAFailoverRestored() throws Exception {
        String target = target(RUN, 0, 5);
        byte[] data = random(12 * MIB, 61);
        S3ShardStore stalled = factory.create();
        ShardOutput zombie = stalled.open(target);
        write(zombie, data, 0, 5 * MIB); // part 1
        byte[] persisted = zombie.persist();
        byte[] closed;
        try (S3ShardStore restored = factory.create()) {
            ShardOutput out = restored.resume(persisted, target);
            write(out, data, 5 * MIB, 7 * MIB);
            closed = out.closeForCommit();
        }
        write(zombie, random(6 * MIB, 62), 0, 6 * MIB); // the zombie's next part
        try (S3ShardStore committer = factory.create()) {
            assertEquals(target, committer.commit(closed));
        }
        assertArrayEquals(data, read(target));
        stalled.close();
    }

    /**
     * A shard closed for commit that the writer never passed on (a graceful cancel right after the
     * shard ended): no snapshot can hold it, so the store aborts its upload on close. One passed on
     * ({@code handOver}) stays for the committer. Before, closing for commit counted as handed out
     * and both uploads stayed.
     */
    @Test
    void aClosedShardNeverPassedOnIsAbortedOnCloseAndOnePassedOnStays() throws Exception {
        String kept = target(RUN, 0, 0);
        String dropped = target(RUN, 0, 1);
        byte[] data = random(6 * MIB, 41);
        byte[] keptClosed;
        try (S3ShardStore store = factory.create()) {
            ShardOutput a = store.open(kept);
            write(a, data, 0, 6 * MIB);
            keptClosed = a.closeForCommit();
            store.handOver(keptClosed);
            ShardOutput b = store.open(dropped);
            write(b, random(6 * MIB, 42), 0, 6 * MIB);
            b.closeForCommit();
            assertEquals(2, uploads().size());
        }
        assertEquals(List.of(key(kept)), uploadKeys(), "the one never passed on is aborted");
        try (S3ShardStore committer = factory.create()) {
            committer.commit(keptClosed);
        }
        assertArrayEquals(data, read(kept));
        assertEquals(List.of(), uploads());
    }

    @Test
    void theCliListsOnlyShardUploadsBelowThePath() throws Exception {
        Set<String> shards = new TreeSet<>();
        for (int subtask = 0; subtask < 3; subtask++) {
            shards.add(key(target(RUN, subtask, 0)));
        }
        shards.add("shards/dt=1/" + new ShardName("part", OTHER_JOB, "7", 0, 0, ".tfrecord.gz"));
        List<String> others =
                List.of(
                        "shards/dt=1/unrelated-upload",
                        "elsewhere/" + new ShardName("part", JOB, RUN, 1, 0, ".tfrecord"));
        for (String key : shards) {
            s3.createMultipartUpload(b -> b.bucket(bucket).key(key));
        }
        for (String key : others) {
            s3.createMultipartUpload(b -> b.bucket(bucket).key(key));
        }
        String base = "s3://" + bucket + "/shards";
        String listing = uploads(base);
        for (String key : shards) {
            assertTrue(listing.contains("s3://" + bucket + "/" + key), listing);
        }
        assertTrue(listing.contains(": 4 incomplete uploads"), listing);
        uploads(base, "--older-than", "0s", "--abort");
        assertEquals(new TreeSet<>(others), new TreeSet<>(uploadKeys()));
        for (MultipartUpload u : uploads()) {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(u.key()).uploadId(u.uploadId()));
        }
        assertNoPartFilesLeft();
    }

    @Test
    void aResumeOrACommitOfAnAbortedUploadIsALostShard() throws Exception {
        String target = target(RUN, 1, 0);
        byte[] persisted;
        byte[] closed;
        try (S3ShardStore store = factory.create()) {
            ShardOutput out = store.open(target);
            write(out, random(6 * MIB, 4), 0, 6 * MIB);
            persisted = out.persist();
            closed = store.resume(persisted, target).closeForCommit();
            out.release();
        }
        uploads("s3://" + bucket + "/shards", "--older-than", "0s", "--abort");
        try (S3ShardStore store = factory.create()) {
            LostShardException resume =
                    assertThrows(LostShardException.class, () -> store.resume(persisted, target));
            assertTrue(resume.getMessage().contains("no longer exists"), resume.getMessage());
            LostShardException commit =
                    assertThrows(LostShardException.class, () -> store.commit(closed));
            assertEquals(target, commit.target());
        }
        assertEquals(List.of(), objects());
        assertEquals(List.of(), uploads());
    }

    /**
     * Two jobs resumed from one savepoint write other bytes into the same upload: the one that
     * completes second never takes the first one's object for its own commit.
     */
    @Test
    void aCompletionByAnotherJobIsNeverTakenForThisCommit() throws Exception {
        String target = target(RUN, 0, 3);
        List<byte[]> closed = twoJobsOnOneUpload(target, random(1000, 21), random(1000, 22));
        byte[] first = closed.get(0);
        byte[] second = closed.get(1);
        try (S3ShardStore store = factory.create()) {
            store.commit(second);
            IOException e = assertThrows(IOException.class, () -> store.commit(first));
            assertTrue(e.getMessage().contains("already exists with other bytes"), e.getMessage());
            store.commit(second); // its own repeated commit still succeeds
        }
    }

    /**
     * Two jobs continue one upload and the later part replaces the earlier one's: the completion of
     * the job whose part was replaced is refused (its ETag is no longer the part's), so no object
     * mixes two jobs' parts, and it is a lost shard naming the other job.
     */
    @Test
    void aCompletionWithAPartReplacedByAnotherJobIsALostShard() throws Exception {
        String target = target(RUN, 0, 4);
        byte[] data = random(1000, 32);
        List<byte[]> closed = twoJobsOnOneUpload(target, random(1000, 31), data);
        byte[] replaced = closed.get(0);
        byte[] latest = closed.get(1);
        try (S3ShardStore store = factory.create()) {
            LostShardException e =
                    assertThrows(LostShardException.class, () -> store.commit(replaced));
            assertTrue(e.getMessage().contains("was replaced with other bytes"), e.getMessage());
            store.commit(latest);
        }
        byte[] object = read(target);
        assertEquals(5 * MIB + 1000, object.length);
        assertArrayEquals(data, java.util.Arrays.copyOfRange(object, 5 * MIB, object.length));
    }

    /**
     * A shard with part 1 uploaded at a savepoint, resumed by two jobs (two stores), each writing
     * its own bytes as part 2 (the second job's last) and closing: the two closed states.
     */
    private List<byte[]> twoJobsOnOneUpload(String target, byte[] first, byte[] second)
            throws Exception {
        byte[] persisted;
        try (S3ShardStore store = factory.create()) {
            ShardOutput out = store.open(target);
            write(out, random(5 * MIB, 20), 0, 5 * MIB);
            persisted = out.persist(); // part 1 uploaded, held by the savepoint
        }
        try (S3ShardStore a = factory.create();
                S3ShardStore b = factory.create()) {
            ShardOutput outA = a.resume(persisted, target);
            ShardOutput outB = b.resume(persisted, target);
            write(outA, first, 0, first.length);
            byte[] closedA = outA.closeForCommit();
            write(outB, second, 0, second.length); // the same part number, after the first's
            return List.of(closedA, outB.closeForCommit());
        }
    }

    @Test
    void theStartUpProbePassesWithEveryPermissionAndLeavesNothing() throws Exception {
        S3AccessProbe.check(factory);
        assertEquals(List.of(), uploads());
        assertEquals(List.of(), objects());
        assertNoPartFilesLeft();
    }

    /**
     * With server-side encryption set, every object creation (the start-up probe, a shard's
     * multipart upload, an empty shard's put) carries the header: S3Proxy, which implements no
     * server-side encryption, refuses each of them for it, and the probe says so (not a missing
     * permission). Without it the same writes succeed (the other tests).
     */
    @Test
    void serverSideEncryptionIsRequestedOnEveryObjectCreation() throws Exception {
        S3ShardStoreFactory f = factory;
        S3ShardStoreFactory encrypted =
                new S3ShardStoreFactory(
                        f.basePath(),
                        f.namePrefix(),
                        f.endpoint(),
                        f.pathStyle(),
                        f.region(),
                        f.credentialsFile(),
                        f.partSize(),
                        new S3Encryption("aws:kms", "arn:aws:kms:us-east-1:1:key/k"));
        String m =
                assertThrows(IOException.class, () -> S3AccessProbe.check(encrypted)).getMessage();
        assertTrue(m.contains("does not implement what writing shards asks for (501"), m);
        assertTrue(m.contains("Server-side encryption is not supported"), m);
        try (S3ShardStore store = encrypted.create()) {
            ShardOutput big = store.open(target(RUN, 0, 0));
            IOException e =
                    assertThrows(
                            IOException.class, () -> write(big, random(6 * MIB, 30), 0, 6 * MIB));
            assertTrue(
                    String.valueOf(rootCause(e).getMessage()).contains("Server-side encryption"),
                    String.valueOf(rootCause(e)));
            ShardOutput small = store.open(target(RUN, 1, 0));
            write(small, random(1000, 31), 0, 1000);
            e = assertThrows(IOException.class, small::closeForCommit);
            assertTrue(
                    String.valueOf(rootCause(e).getMessage()).contains("Server-side encryption"),
                    String.valueOf(rootCause(e)));
            // An empty shard is one PutObject at its commit.
            byte[] empty = store.open(target(RUN, 2, 0)).closeForCommit();
            e = assertThrows(IOException.class, () -> store.commit(empty));
            assertTrue(
                    String.valueOf(rootCause(e).getMessage()).contains("Server-side encryption"),
                    String.valueOf(rootCause(e)));
        }
        assertEquals(List.of(), objects());
        assertThrows(IllegalArgumentException.class, () -> new S3Encryption("AES256", "key-1"));
        assertThrows(IllegalArgumentException.class, () -> new S3Encryption("aes", null));
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    @Test
    void theStartUpProbeNamesWhatIsRefused() throws Exception {
        Path wrong = dir.resolve("wrong.properties");
        Files.writeString(wrong, "access-key=nobody\nsecret-key=wrong-secret\n");
        S3ShardStoreFactory denied =
                ShardRunChecks.s3ProxyStore(factory.basePath(), proxy.endpoint(), wrong);
        IOException e = assertThrows(IOException.class, () -> S3AccessProbe.check(denied));
        assertTrue(
                e.getMessage().contains("s3:PutObject (CreateMultipartUpload) was refused (403"),
                e.getMessage());
        assertTrue(!e.getMessage().contains("wrong-secret"), "no secret in the message");
    }

    /**
     * S3Proxy honours {@code If-None-Match: *} on PutObject and CompleteMultipartUpload as S3 does
     * (412 for an existing key, the object unchanged); the shard store also looks at the key before
     * every commit, for stores that ignore the header.
     */
    @Test
    void s3ProxyRefusesToOverwriteUnderIfNoneMatch() {
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("first"));
        software.amazon.awssdk.services.s3.model.S3Exception put =
                assertThrows(
                        software.amazon.awssdk.services.s3.model.S3Exception.class,
                        () ->
                                s3.putObject(
                                        b -> b.bucket(bucket).key("k").ifNoneMatch("*"),
                                        RequestBody.fromString("second")));
        assertEquals(412, put.statusCode());
        String upload = s3.createMultipartUpload(b -> b.bucket(bucket).key("k")).uploadId();
        String etag =
                s3.uploadPart(
                                b -> b.bucket(bucket).key("k").uploadId(upload).partNumber(1),
                                RequestBody.fromString("third"))
                        .eTag();
        software.amazon.awssdk.services.s3.model.CompletedPart part =
                software.amazon.awssdk.services.s3.model.CompletedPart.builder()
                        .partNumber(1)
                        .eTag(etag)
                        .build();
        software.amazon.awssdk.services.s3.model.S3Exception complete =
                assertThrows(
                        software.amazon.awssdk.services.s3.model.S3Exception.class,
                        () ->
                                s3.completeMultipartUpload(
                                        b ->
                                                b.bucket(bucket)
                                                        .key("k")
                                                        .uploadId(upload)
                                                        .ifNoneMatch("*")
                                                        .multipartUpload(m -> m.parts(part))));
        assertEquals(412, complete.statusCode());
        assertEquals(
                "first",
                new String(read("s3://" + bucket + "/k"), java.nio.charset.StandardCharsets.UTF_8));
        s3.abortMultipartUpload(b -> b.bucket(bucket).key("k").uploadId(upload));
    }

    @Test
    void closingAStoreAbortsOnlyUploadsNoCheckpointHolds() throws Exception {
        String kept = target(RUN, 0, 0);
        String dropped = target(RUN, 0, 1);
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
        String target = target(RUN, 0, 0);
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

    private String target(String run, int subtask, long counter) {
        return "s3://"
                + bucket
                + "/shards/dt=1/"
                + new ShardName("part", JOB, run, subtask, counter, ".tfrecord").format();
    }

    /** {@code tfstream shards uploads PATH} with this test's S3 settings; returns its output. */
    private static String uploads(String path, String... more) {
        return ShardRunChecks.uploads(path, proxy.endpoint(), credentials, more);
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
