package io.tfstream.operators.source;

import io.tfstream.operators.types.ImmutableTypeSerializer;
import io.tfstream.operators.types.SerializerTypeInfo;
import io.tfstream.operators.types.VersionedSnapshot;
import java.io.IOException;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of {@link SourceRecord}: no Kryo. Layout: topic (UTF), partition, offset,
 * timestamp, value (length + bytes), key (length, -1 for none), headers (count, then key UTF and
 * value length (-1 for null) + bytes each). The snapshot is versioned: a format change bumps {@link
 * Snapshot#VERSION} and reads the old one.
 */
public final class SourceRecordSerializer extends ImmutableTypeSerializer<SourceRecord> {
    private static final long serialVersionUID = 1L;

    public static final SourceRecordSerializer INSTANCE = new SourceRecordSerializer();

    private SourceRecordSerializer() {}

    @Override
    public SourceRecord createInstance() {
        return SourceRecord.of(new byte[0], "", 0, 0, -1);
    }

    @Override
    public void serialize(SourceRecord r, DataOutputView out) throws IOException {
        out.writeUTF(r.topic());
        out.writeInt(r.partition());
        out.writeLong(r.offset());
        out.writeLong(r.timestamp());
        writeBytes(r.value(), out);
        writeBytes(r.key(), out);
        out.writeInt(r.headerCount());
        for (int i = 0; i < r.headerCount(); i++) {
            out.writeUTF(r.headerKey(i));
            writeBytes(r.headerValue(i), out);
        }
    }

    @Override
    public SourceRecord deserialize(DataInputView in) throws IOException {
        String topic = in.readUTF();
        int partition = in.readInt();
        long offset = in.readLong();
        long timestamp = in.readLong();
        byte[] value = readBytes(in);
        byte[] key = readBytes(in);
        int headers = in.readInt();
        if (headers < 0) {
            throw new IOException("corrupt SourceRecord: " + headers + " headers");
        }
        String[] keys = new String[headers];
        byte[][] values = new byte[headers][];
        for (int i = 0; i < headers; i++) {
            keys[i] = in.readUTF();
            values[i] = readBytes(in);
        }
        return new SourceRecord(
                value == null ? new byte[0] : value,
                key,
                keys,
                values,
                topic,
                partition,
                offset,
                timestamp);
    }

    static void writeBytes(byte[] b, DataOutputView out) throws IOException {
        if (b == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(b.length);
            out.write(b);
        }
    }

    static byte[] readBytes(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < -1) {
            throw new IOException("corrupt length " + n);
        }
        if (n == -1) {
            return null;
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    @Override
    public TypeSerializerSnapshot<SourceRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The versioned snapshot of {@link SourceRecordSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<SourceRecord> {
        /** The serialized layout version; bump it (and keep reading old data) on any change. */
        public static final int VERSION = 1;

        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }

    /** Type information that uses this serializer. */
    public static TypeInformation<SourceRecord> typeInfo() {
        return new SerializerTypeInfo<>(SourceRecord.class, INSTANCE);
    }
}
