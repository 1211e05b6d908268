package io.tfstream.operators.shards.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3's limit of 10 000 parts per upload, which S3 itself enforces only at the part upload or the
 * completion, long after a checkpoint took the shard: the room a shard reports shrinks with its
 * parts (the writer finishes a shard before a record that may not fit), and a 10 001st part is
 * refused before any request. The client points at a closed port: every check here happens before a
 * request would be sent.
 */
class S3PartLimitTest {
    private static final int PART = S3ShardStoreFactory.MIN_PART_SIZE;

    private static S3ShardStore store() {
        return new S3ShardStore(
                S3Client.builder()
                        .endpointOverride(URI.create("http://127.0.0.1:9"))
                        .region(Region.US_EAST_1)
                        .credentialsProvider(AnonymousCredentialsProvider.create())
                        .forcePathStyle(true)
                        .build(),
                PART,
                S3Encryption.NONE);
    }

    /** An open shard whose state holds {@code parts} uploaded parts of the minimum size. */
    private static S3ShardOutput withParts(S3ShardStore store, int parts) {
        List<S3ShardState.Part> uploaded = new ArrayList<>();
        for (int i = 1; i <= parts; i++) {
            uploaded.add(new S3ShardState.Part(i, "\"etag-" + i + "\"", PART));
        }
        return new S3ShardOutput(
                store,
                new S3ShardState.Persisted(
                        "s3://b/shards/part-x.tfrecord",
                        "token",
                        "upload-1",
                        uploaded,
                        (long) parts * PART,
                        new byte[0]),
                PART,
                parts + 1);
    }

    @Test
    void theRoomOfAShardShrinksWithItsPartsAndEndsAtTheLimit() throws IOException {
        try (S3ShardStore store = store()) {
            assertEquals(10_000L * PART - 1, withParts(store, 0).room());
            assertEquals(PART - 1L, withParts(store, 9_999).room(), "one part left");
            assertTrue(withParts(store, 10_000).room() < 0, "none left");
        }
    }

    /**
     * A shard that continues its upload after a restore numbers its next part past a gap, so that a
     * stalled writer of the failed attempt replaces none of its parts; its room counts the gap.
     */
    @Test
    void aRestoredShardSkipsAGapOfPartNumbers() throws IOException {
        try (S3ShardStore store = store()) {
            S3ShardOutput restored =
                    store.continued(
                            new S3ShardState.Persisted(
                                    "s3://b/shards/part-x.tfrecord",
                                    "token",
                                    "upload-1",
                                    List.of(new S3ShardState.Part(3, "\"e\"", PART)),
                                    PART,
                                    new byte[0]));
            assertEquals(
                    (10_000L - 3 - S3ShardOutput.RESTORE_GAP) * PART - 1,
                    restored.room(),
                    "parts 4 to 103 skipped");
        }
    }

    @Test
    void aTenThousandAndFirstPartIsRefusedBeforeAnyRequest() throws IOException {
        try (S3ShardStore store = store()) {
            S3ShardOutput full = withParts(store, 10_000);
            IOException e =
                    assertThrows(IOException.class, () -> full.write(new byte[PART], 0, PART));
            assertTrue(
                    e.getMessage().contains("more than 10000 parts; roll shards earlier"),
                    e.getMessage());
            S3ShardOutput tail = withParts(store, 10_000);
            tail.write(new byte[] {1}, 0, 1);
            IOException atClose = assertThrows(IOException.class, tail::closeForCommit);
            assertTrue(
                    atClose.getMessage().contains("more than 10000 parts"), atClose.getMessage());
        }
    }
}
