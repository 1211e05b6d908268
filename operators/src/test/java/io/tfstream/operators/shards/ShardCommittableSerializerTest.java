package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Committables' bytes: round trip, the stored form of version 3, and Flink file sink committables
 * of the compacting sink (versions 1 and 2) refused with what to do.
 */
class ShardCommittableSerializerTest {
    private final ShardCommittableSerializer ser = new ShardCommittableSerializer();

    private static final ShardCommittable.Shard SHARD =
            new ShardCommittable.Shard(
                    "b",
                    "part-x.tfrecord",
                    new byte[] {9, 8},
                    ShardTesting.stats(2, 1_000L),
                    0xcafebabeL,
                    64,
                    3);
    private static final ShardCommittable.Marker MARKER =
            new ShardCommittable.Marker(
                    "file:/s/b", "b", 3_600_000L, List.of("p1", "p2"), List.of());

    @Test
    void committablesRoundTripAndReadFromTheirStoredBytes() throws IOException {
        for (ShardCommittable c : List.of(SHARD, MARKER)) {
            assertEquals(c, ser.deserialize(ser.getVersion(), ser.serialize(c)));
        }
        String shard = HexFormat.of().formatHex(ser.serialize(SHARD));
        String marker = HexFormat.of().formatHex(ser.serialize(MARKER));
        // Version 4: a shard as in version 3, then the schema fingerprint (absent: one 0 byte);
        // version 6 then its feature statistics (absent: one 0 byte); version 7 its history
        // (absent: one 0 byte).
        assertEquals(STORED_SHARD_V3 + "000000", shard);
        // Version 5: a marker as before, then its job ids (none: 0 as an int); version 7 its
        // lineage (none: 0 as an int).
        assertEquals(STORED_MARKER_V3 + "00000000" + "00000000", marker);
        ShardCommittable.Shard stamped =
                SHARD.withHistory(new io.tfstream.shards.ShardManifest.History("ab", 7));
        assertEquals(
                STORED_SHARD_V3 + "0000" + "01" + "00026162" + "0000000000000007",
                HexFormat.of().formatHex(ser.serialize(stamped)));
        assertEquals(stamped, ser.deserialize(7, ser.serialize(stamped)));
        ShardCommittable.Marker withLineage =
                new ShardCommittable.Marker(
                        MARKER.bucketDir(),
                        MARKER.bucket(),
                        1L,
                        MARKER.shards(),
                        List.of("j"),
                        List.of(
                                new io.tfstream.shards.ShardSuccessMarker.Cut("ab", 7),
                                new io.tfstream.shards.ShardSuccessMarker.Cut(
                                        "cd", Long.MAX_VALUE)));
        assertEquals(withLineage, ser.deserialize(7, ser.serialize(withLineage)));
        ShardCommittable.Retire retire =
                new ShardCommittable.Retire("b", "part-y", new byte[] {4, 2}, 9, "j");
        // kind 3, bucket, name, the resume bytes, the restored checkpoint, the job
        assertEquals(
                "03"
                        + "000162"
                        + "0006706172742d79"
                        + "000000020402"
                        + "0000000000000009"
                        + "00016a",
                HexFormat.of().formatHex(ser.serialize(retire)));
        assertEquals(retire, ser.deserialize(7, ser.serialize(retire)));
        ShardCommittable.Marker withJobs =
                new ShardCommittable.Marker(
                        MARKER.bucketDir(), MARKER.bucket(), 1L, MARKER.shards(), List.of("j"));
        assertEquals(
                withJobs,
                ser.deserialize(
                        5,
                        java.util.Arrays.copyOf(
                                ser.serialize(withJobs), ser.serialize(withJobs).length - 4)));
        ShardCommittable.Shard live = shard("ab", new byte[] {5});
        assertEquals(
                STORED_SHARD_V3 + "0100026162" + "010000000105" + "00",
                HexFormat.of().formatHex(ser.serialize(live)));
        assertEquals(
                live,
                ser.deserialize(
                        6,
                        HexFormat.of().parseHex(STORED_SHARD_V3 + "0100026162" + "010000000105")));
        // version 8: the same bytes for none and inline, tag 2 then the path for staged ones
        ShardCommittable.Shard staged = shard("ab", null).withFeaturesFile("s:/x");
        assertEquals(
                STORED_SHARD_V3 + "0100026162" + "02" + "0004733a2f78" + "00",
                HexFormat.of().formatHex(ser.serialize(staged)));
        assertEquals(staged, ser.deserialize(8, ser.serialize(staged)));
        ShardCommittable.Shard v4 = shard("ab", null);
        assertEquals(
                v4, ser.deserialize(4, HexFormat.of().parseHex(STORED_SHARD_V3 + "0100026162")));
        assertEquals(SHARD, ser.deserialize(3, HexFormat.of().parseHex(STORED_SHARD_V3)));
        assertEquals(MARKER, ser.deserialize(3, HexFormat.of().parseHex(STORED_MARKER_V3)));
    }

    /** {@link #SHARD} of schema {@code fingerprint} with feature statistics {@code features}. */
    private static ShardCommittable.Shard shard(String fingerprint, byte[] features) {
        return new ShardCommittable.Shard(
                SHARD.bucket(),
                SHARD.name(),
                SHARD.closed(),
                SHARD.stats(),
                SHARD.crc32c(),
                SHARD.fileBytes(),
                SHARD.segments(),
                fingerprint,
                features,
                null,
                null);
    }

    @Test
    void committablesOfTheCompactingSinkAreRefusedWithWhatToDo() {
        for (int old = 1; old <= 2; old++) {
            int v = old;
            IOException e = assertThrows(IOException.class, () -> ser.deserialize(v, new byte[4]));
            assertTrue(e.getMessage().contains("--drain"), e.getMessage());
        }
    }

    private static final String STORED_SHARD_V3 =
            "01000162000f706172742d782e74667265636f726400000002090801000000000000000200000000"
                    + "0000001400000000000003e800000000000003e90000000200086578616d706c6573000000000000"
                    + "0000000000640000000000000064000000000000000100086578616d706c65730000000100000000"
                    + "000000650000000000000065000000000000000100000000cafebabe000000000000004000000003";
    private static final String STORED_MARKER_V3 =
            "02000966696c653a2f732f62000162000000000036ee80000000020002703100027032";
}
