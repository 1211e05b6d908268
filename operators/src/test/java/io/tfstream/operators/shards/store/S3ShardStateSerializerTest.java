package io.tfstream.operators.shards.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class S3ShardStateSerializerTest {
    private static final List<S3ShardState.Part> PARTS =
            List.of(
                    new S3ShardState.Part(1, "\"0cc175b9c0f1b6a831c399e269772661\"", 5242880),
                    new S3ShardState.Part(2, "\"92eb5ffee6ae2fec3ad71c777531578f\"", 5242880));

    @Test
    void persistedRoundTrips() throws IOException {
        byte[] tail = {1, 2, 3, 0, -1};
        S3ShardState.Persisted state =
                new S3ShardState.Persisted("s3://b/k/f.tfrecord", "tok", "up-1", PARTS, 10, tail);
        S3ShardState.Persisted back =
                (S3ShardState.Persisted)
                        S3ShardStateSerializer.fromBytes(S3ShardStateSerializer.toBytes(state));
        assertEquals(state.target(), back.target());
        assertEquals(state.token(), back.token());
        assertEquals(state.uploadId(), back.uploadId());
        assertEquals(state.parts(), back.parts());
        assertEquals(state.bytesInParts(), back.bytesInParts());
        assertArrayEquals(tail, back.tail());
    }

    @Test
    void persistedWithoutUploadRoundTrips() throws IOException {
        S3ShardState.Persisted state =
                new S3ShardState.Persisted("s3a://b/f", "tok", null, List.of(), 0, new byte[0]);
        S3ShardState.Persisted back =
                (S3ShardState.Persisted)
                        S3ShardStateSerializer.fromBytes(S3ShardStateSerializer.toBytes(state));
        assertNull(back.uploadId());
        assertTrue(back.parts().isEmpty());
        assertEquals(0, back.tail().length);
    }

    @Test
    void closedRoundTrips() throws IOException {
        S3ShardState.Closed state =
                new S3ShardState.Closed("s3://b/k/f.tfrecord", "tok", "up-1", PARTS, 10485760);
        assertEquals(
                state, S3ShardStateSerializer.fromBytes(S3ShardStateSerializer.toBytes(state)));
        S3ShardState.Closed empty = new S3ShardState.Closed("s3://b/e", "t", null, List.of(), 0);
        assertEquals(
                empty, S3ShardStateSerializer.fromBytes(S3ShardStateSerializer.toBytes(empty)));
    }

    @Test
    void refusesOtherVersions() throws IOException {
        byte[] bytes =
                S3ShardStateSerializer.toBytes(
                        new S3ShardState.Closed("s3://b/f", "t", null, List.of(), 0));
        ByteBuffer.wrap(bytes).putInt(0, 2);
        IOException e =
                assertThrows(IOException.class, () -> S3ShardStateSerializer.fromBytes(bytes));
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
    }

    @Test
    void refusesATailLongerThanTheState() throws IOException {
        byte[] bytes =
                S3ShardStateSerializer.toBytes(
                        new S3ShardState.Persisted(
                                "s3://b/f", "t", null, List.of(), 0, new byte[3]));
        // The tail length is the int before the 3 tail bytes.
        ByteBuffer.wrap(bytes).putInt(bytes.length - 7, Integer.MAX_VALUE);
        assertThrows(IOException.class, () -> S3ShardStateSerializer.fromBytes(bytes));
    }

    @Test
    void multipartEtagIsTheMd5OfThePartMd5s() {
        // md5(md5("a") || md5("b")) as S3 and S3Proxy compute it for a two-part upload.
        assertEquals(34, MultipartEtag.of(PARTS).length(), "32 hex digits, a dash, the part count");
        assertTrue(MultipartEtag.of(PARTS).endsWith("-2"));
        assertEquals("d41d8cd98f00b204e9800998ecf8427e", MultipartEtag.of(List.of()));
    }
}
