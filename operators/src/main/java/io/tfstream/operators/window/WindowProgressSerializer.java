package io.tfstream.operators.window;

import io.tfstream.operators.types.ImmutableTypeSerializer;
import io.tfstream.operators.types.VersionedSnapshot;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of {@link WindowProgress}. Layout: buffered bytes (long), parts emitted (int),
 * batch id (boolean present, then UTF).
 */
final class WindowProgressSerializer extends ImmutableTypeSerializer<WindowProgress> {
    private static final long serialVersionUID = 1L;

    public static final WindowProgressSerializer INSTANCE = new WindowProgressSerializer();

    private WindowProgressSerializer() {}

    @Override
    public WindowProgress createInstance() {
        return WindowProgress.NONE;
    }

    @Override
    public void serialize(WindowProgress p, DataOutputView out) throws IOException {
        out.writeLong(p.bufferedBytes());
        out.writeInt(p.partsEmitted());
        out.writeBoolean(p.batchId() != null);
        if (p.batchId() != null) {
            out.writeUTF(p.batchId());
        }
    }

    @Override
    public WindowProgress deserialize(DataInputView in) throws IOException {
        long bytes = in.readLong();
        int parts = in.readInt();
        String id = in.readBoolean() ? in.readUTF() : null;
        try {
            return new WindowProgress(bytes, parts, id);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt window progress: " + e.getMessage(), e);
        }
    }

    @Override
    public TypeSerializerSnapshot<WindowProgress> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The versioned snapshot of {@link WindowProgressSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<WindowProgress> {
        /** The serialized layout version; bump it on any change. */
        public static final int VERSION = 1;

        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }
}
