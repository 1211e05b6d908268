package io.tfstream.job.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.operators.shards.store.LostShardException;
import io.tfstream.operators.shards.store.S3AccessProbe;
import io.tfstream.operators.shards.store.S3ShardStore;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.operators.shards.store.ShardOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * The S3 shard store against the behaviours of other S3 stores, reproduced by {@link
 * S3BehaviourProxy} in front of S3Proxy: MinIO (uploads listed under a prefix only when it is a
 * whole key; stale uploads expire on their own) and a role without {@code s3:ListBucket} (403 for a
 * missing key).
 */
class S3CompatibleStoresITCase {
    private static final int MIB = 1024 * 1024;
    private static final String JOB = "0123456789abcdef0123456789abcdef";

    @TempDir static Path dir;
    private static S3ProxyProcess s3proxy;
    private static Path credentials;

    @BeforeAll
    static void start() throws Exception {
        s3proxy = S3ProxyProcess.start(dir);
        credentials = s3proxy.writeCredentials(dir.resolve("s3.properties"));
    }

    @AfterAll
    static void stop() {
        s3proxy.close();
    }

    private static S3ShardStoreFactory factory(String endpoint, String bucket) {
        return ShardRunChecks.s3ProxyStore("s3://" + bucket + "/shards", endpoint, credentials);
    }

    private static String target(String bucket, int counter) {
        return "s3://"
                + bucket
                + "/shards/dt=1/"
                + new ShardName("part", JOB, "00c0ffee00c0ffee", 0, counter, ".tfrecord").format();
    }

    @Test
    void onMinioTheStoreResumesCommitsAndTheCliListsWhatIsLeft() throws Exception {
        s3proxy.createBucket("minio");
        try (S3BehaviourProxy minio =
                        new S3BehaviourProxy(s3proxy.endpoint(), S3BehaviourProxy.Behaviour.MINIO);
                S3Client client = factory(minio.endpoint(), "minio").newClient()) {
            S3ShardStoreFactory f = factory(minio.endpoint(), "minio");
            S3AccessProbe.check(f);
            byte[] data = random(7 * MIB, 1);
            String kept = target("minio", 0);
            String left = target("minio", 1);
            byte[] persisted;
            S3ShardStore crashed = f.create();
            ShardOutput out = crashed.open(kept);
            out.write(data, 0, 6 * MIB);
            persisted = out.persist();
            ShardOutput other = crashed.open(left);
            other.write(data, 0, 6 * MIB); // an upload the crashed attempt never persisted

            assertEquals(
                    List.of(),
                    client.listMultipartUploads(b -> b.bucket("minio").prefix("shards/")).uploads(),
                    "the proxy lists a prefix that is no whole key as empty, as MinIO does");
            assertEquals(2, client.listMultipartUploads(b -> b.bucket("minio")).uploads().size());

            try (S3ShardStore restored = f.create()) {
                ShardOutput again = restored.resume(persisted, kept);
                again.write(data, 6 * MIB, MIB);
                restored.commit(again.closeForCommit());
            }
            assertArrayEquals(
                    data,
                    client.getObjectAsBytes(b -> b.bucket("minio").key(key(kept))).asByteArray());

            String listing = cli(minio.endpoint(), "s3://minio/shards");
            assertTrue(listing.contains(left + "  upload "), listing);
            assertTrue(listing.contains(": 1 incomplete uploads"), listing);
            cli(minio.endpoint(), "s3://minio/shards", "--older-than", "0s", "--abort");
            assertEquals(List.of(), client.listMultipartUploads(b -> b.bucket("minio")).uploads());
        }
    }

    /** MinIO expires stale uploads on its own: a checkpoint older than that holds a lost shard. */
    @Test
    void anUploadExpiredByTheStoreIsALostShardOnResume() throws Exception {
        s3proxy.createBucket("expiry");
        try (S3BehaviourProxy minio =
                        new S3BehaviourProxy(s3proxy.endpoint(), S3BehaviourProxy.Behaviour.MINIO);
                S3Client client = factory(minio.endpoint(), "expiry").newClient()) {
            S3ShardStoreFactory f = factory(minio.endpoint(), "expiry");
            byte[] persisted;
            try (S3ShardStore store = f.create()) {
                ShardOutput out = store.open(target("expiry", 0));
                out.write(random(6 * MIB, 2), 0, 6 * MIB);
                persisted = out.persist();
            }
            for (MultipartUpload u :
                    client.listMultipartUploads(b -> b.bucket("expiry")).uploads()) {
                client.abortMultipartUpload(
                        b -> b.bucket("expiry").key(u.key()).uploadId(u.uploadId()));
            }
            try (S3ShardStore store = f.create()) {
                LostShardException e =
                        assertThrows(
                                LostShardException.class,
                                () -> store.resume(persisted, target("expiry", 0)));
                assertEquals(target("expiry", 0), e.target());
            }
        }
    }

    @Test
    void withoutListBucketTheProbeAndACommitNameThePermission() throws Exception {
        s3proxy.createBucket("nolist");
        try (S3BehaviourProxy denied =
                new S3BehaviourProxy(
                        s3proxy.endpoint(), S3BehaviourProxy.Behaviour.NO_LIST_BUCKET)) {
            S3ShardStoreFactory f = factory(denied.endpoint(), "nolist");
            IOException probe = assertThrows(IOException.class, () -> S3AccessProbe.check(f));
            assertTrue(
                    probe.getMessage()
                            .contains("s3:ListBucket (HEAD of a missing key answered 403"),
                    probe.getMessage());
            try (S3ShardStore store = f.create()) {
                ShardOutput out = store.open(target("nolist", 0));
                out.write(new byte[100], 0, 100);
                byte[] closed = out.closeForCommit();
                IOException commit = assertThrows(IOException.class, () -> store.commit(closed));
                assertTrue(
                        commit.getMessage().contains("grant s3:ListBucket"), commit.getMessage());
            }
        }
    }

    private static String key(String target) {
        return target.substring(target.indexOf('/', "s3://".length()) + 1);
    }

    private static String cli(String endpoint, String path, String... more) {
        return ShardRunChecks.uploads(path, endpoint, credentials, more);
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}
