package io.tfstream.operators.shards;

import static io.tfstream.operators.shards.ShardTesting.JOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.shards.ShardEncoder;
import io.tfstream.tfrecord.Compression;
import java.io.IOException;
import java.util.HexFormat;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.junit.jupiter.api.Test;

/**
 * The writer state's bytes: round trip, the stored form of version 4 (a checkpoint written by this
 * release must stay readable), and the compacting sink's state refused with what to do.
 */
class ShardWriterStateSerializerTest {
    private final ShardWriterStateSerializer ser = new ShardWriterStateSerializer();

    static ShardWriterState.Open open() throws IOException {
        ShardEncoder.State enc =
                ShardEncoder.State.readFrom(
                        new DataInputDeserializer(
                                HexFormat.of()
                                        .parseHex(
                                                "00000001020600000000000000030000000000000040"
                                                        + "12345678000000000000005000abcdef000000"
                                                        + "0101")));
        return new ShardWriterState.Open(
                "dt=2026-11-24/hour=10",
                "part-" + JOB + "-3-1-7.tfrecord.zz",
                1_764_003_600_000L,
                new byte[] {1, 2, 3},
                enc,
                ShardTesting.stats(3, 1_764_000_000_000L),
                1_764_000_000_123L,
                2);
    }

    private static final String LINEAGE_V4 =
            "01002030313233343536373839616263646566303132333435363738396162636465660000000200"
                    + "000000000000090000000000000005";

    @Test
    void aLineageRoundTripsAndReadsFromItsStoredBytes() throws IOException {
        ShardWriterState.Lineage l = new ShardWriterState.Lineage(JOB, 2, 9, 5);
        byte[] bytes = ser.serialize(l);
        assertEquals(LINEAGE_V4, HexFormat.of().formatHex(bytes));
        assertEquals(l, ser.deserialize(4, HexFormat.of().parseHex(LINEAGE_V4)));
    }

    @Test
    void anOpenShardRoundTripsAndReadsFromItsStoredBytes() throws IOException {
        ShardWriterState.Open o = open();
        byte[] bytes = ser.serialize(o);
        assertEquals(o, ser.deserialize(ser.getVersion(), bytes));
        assertEquals(Compression.ZLIB, o.encoder().compression());
        // Version 5 = version 4's layout, then the schema fingerprint (absent: one 0 byte);
        // version 6 then the feature statistics (absent: one 0 byte).
        assertEquals(STORED_OPEN_V4 + "0000", HexFormat.of().formatHex(bytes));
        assertEquals(o, ser.deserialize(4, HexFormat.of().parseHex(STORED_OPEN_V4)));
        assertEquals(o, ser.deserialize(5, HexFormat.of().parseHex(STORED_OPEN_V4 + "00")));
        ShardWriterState.Open live =
                new ShardWriterState.Open(
                        o.bucket(),
                        o.name(),
                        o.bucketEnd(),
                        o.persisted(),
                        o.encoder(),
                        o.stats(),
                        o.openedAt(),
                        o.segments(),
                        "ab",
                        new byte[] {7, 8});
        byte[] withFingerprint = ser.serialize(live);
        assertEquals(
                STORED_OPEN_V4 + "0100026162" + "01000000020708",
                HexFormat.of().formatHex(withFingerprint));
        assertEquals(live, ser.deserialize(6, withFingerprint));
        byte[] damaged = HexFormat.of().parseHex(STORED_OPEN_V4 + "0100026162" + "017fffffff07");
        IOException e = assertThrows(IOException.class, () -> ser.deserialize(6, damaged));
        assertTrue(e.getMessage().contains("feature statistics"), e.getMessage());
    }

    @Test
    void stateOfTheCompactingSinkIsRefusedWithWhatToDo() {
        for (int old = 1; old <= 3; old++) {
            int v = old;
            IOException e = assertThrows(IOException.class, () -> ser.deserialize(v, new byte[8]));
            assertTrue(e.getMessage().contains("--drain"), e.getMessage());
            assertTrue(e.getMessage().contains("without its state"), e.getMessage());
        }
        IOException newer = assertThrows(IOException.class, () -> ser.deserialize(7, new byte[8]));
        assertTrue(newer.getMessage().contains("newer"), newer.getMessage());
    }

    private static final String STORED_OPEN_V4 =
            "02001564743d323032362d31312d32342f686f75723d31300037706172742d303132333435363738"
                    + "39616263646566303132333435363738396162636465662d332d312d372e74667265636f72642e7a"
                    + "7a0000019ab6ced68000000003010203000000010206000000000000000300000000000000401234"
                    + "5678000000000000005000abcdef0000000101010000000000000003000000000000001e0000019a"
                    + "b697e8000000019ab697e8020000000200086578616d706c65730000000000000000000000640000"
                    + "000000000066000000000000000200086578616d706c657300000001000000000000006500000000"
                    + "0000006500000000000000010000019ab697e87b00000002";
}
