package io.tfstream.operators.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The window operator's progress state: round trip, corrupt bytes and layout versions. */
class WindowProgressSerializerTest {
    private static <T> T roundTrip(TypeSerializer<T> s, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        T back = s.deserialize(in);
        assertEquals(0, in.available(), "all bytes read");
        return back;
    }

    @Test
    void windowProgressRoundTripsWithAndWithoutABatchId() throws IOException {
        WindowProgress none = WindowProgress.NONE.plusBytes(123);
        assertEquals(none, roundTrip(WindowProgressSerializer.INSTANCE, none));
        WindowProgress emitted = new WindowProgress(0, 3, "0123456789abcdef");
        assertEquals(emitted, roundTrip(WindowProgressSerializer.INSTANCE, emitted));
        DataOutputSerializer out = new DataOutputSerializer(16);
        out.writeLong(-1);
        out.writeInt(0);
        out.writeBoolean(false);
        IOException e =
                assertThrows(
                        IOException.class,
                        () ->
                                WindowProgressSerializer.INSTANCE.deserialize(
                                        new DataInputDeserializer(out.getCopyOfBuffer())));
        assertTrue(e.getMessage().startsWith("corrupt window progress"), e.getMessage());
        TypeSerializerSnapshot<WindowProgress> snap =
                WindowProgressSerializer.INSTANCE.snapshotConfiguration();
        assertSame(WindowProgressSerializer.INSTANCE, snap.restoreSerializer());
        assertThrows(
                IOException.class,
                () ->
                        snap.readSnapshot(
                                2,
                                new DataInputDeserializer(new byte[0]),
                                getClass().getClassLoader()));
    }
}
