package io.tfstream.operators.source;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.types.ImmutableTypeSerializer;
import io.tfstream.operators.types.SerializerTypeInfo;
import io.tfstream.operators.types.VersionedSnapshot;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of {@link SourceRecord}: no Kryo. Layout: topic (UTF), partition, offset,
 * timestamp, value (length + bytes), key (length, -1 for none), headers (count, then key UTF and
 * value length (-1 for null) + bytes each), then from layout 2 on the {@linkplain
 * SourceRecord#original() original} value (length, -1 for none), from layout 3 on the {@linkplain
 * SourceRecord#schemaFingerprint() schema fingerprint} (a presence flag, then UTF). The snapshot is
 * versioned: a format change bumps {@link Snapshot#VERSION} and keeps reading the older layouts
 * ({@link #ofLayout}), so window state of an older savepoint is migrated.
 */
@Internal
public final class SourceRecordSerializer extends ImmutableTypeSerializer<SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** The serializer of the current layout, {@link Snapshot#VERSION}. */
    public static final SourceRecordSerializer INSTANCE = new SourceRecordSerializer(3);

    private static final SourceRecordSerializer LAYOUT_1 = new SourceRecordSerializer(1);
    private static final SourceRecordSerializer LAYOUT_2 = new SourceRecordSerializer(2);

    private final int layout;

    private SourceRecordSerializer(int layout) {
        this.layout = layout;
    }

    /** The serializer that reads and writes layout {@code version} (1 to 3). */
    public static SourceRecordSerializer ofLayout(int version) {
        return switch (version) {
            case 1 -> LAYOUT_1;
            case 2 -> LAYOUT_2;
            case 3 -> INSTANCE;
            default -> throw new IllegalArgumentException("no SourceRecord layout " + version);
        };
    }

    /** The layout version this serializer reads and writes. */
    public int layout() {
        return layout;
    }

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
        if (layout >= 2) {
            writeBytes(r.original(), out);
        } else if (r.original() != null) {
            throw new IllegalStateException(
                    "SourceRecord layout 1 cannot hold the original value of " + r);
        }
        if (layout >= 3) {
            out.writeBoolean(r.schemaFingerprint() != null);
            if (r.schemaFingerprint() != null) {
                out.writeUTF(r.schemaFingerprint());
            }
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
        byte[] original = layout >= 2 ? readBytes(in) : null;
        String fingerprint = layout >= 3 && in.readBoolean() ? in.readUTF() : null;
        return new SourceRecord(
                value == null ? new byte[0] : value,
                key,
                keys,
                values,
                topic,
                partition,
                offset,
                timestamp,
                original,
                fingerprint);
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
    public boolean equals(Object o) {
        return o instanceof SourceRecordSerializer s && s.layout == layout;
    }

    @Override
    public int hashCode() {
        return 31 * SourceRecordSerializer.class.hashCode() + layout;
    }

    /** The singletons stay singletons across Java serialization of the job graph. */
    private Object readResolve() {
        return ofLayout(layout);
    }

    @Override
    public TypeSerializerSnapshot<SourceRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /**
     * The versioned snapshot of {@link SourceRecordSerializer}. 2: the original value of converted
     * records was added; 3: the schema fingerprint; layouts 1 and 2 are still read.
     */
    public static final class Snapshot extends VersionedSnapshot<SourceRecord> {
        /** The serialized layout version; bump it (and keep reading old data) on any change. */
        public static final int VERSION = 3;

        public Snapshot() {
            super(VERSION, 1, SourceRecordSerializer::ofLayout);
        }
    }

    /** Type information that uses this serializer. */
    public static TypeInformation<SourceRecord> typeInfo() {
        return new SerializerTypeInfo<>(SourceRecord.class, INSTANCE);
    }
}
