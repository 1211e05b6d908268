package io.tfstream.operators.deadletter;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.operators.types.ImmutableTypeSerializer;
import io.tfstream.operators.types.SerializerTypeInfo;
import io.tfstream.operators.types.VersionedSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of {@link DeadLetter}: the source record ({@link SourceRecordSerializer}'s
 * layout), the reason code and the message as length-prefixed UTF-8 (messages quote record bytes
 * and may exceed what {@code writeUTF} holds), then the schema fingerprint when there is one
 * (layout version 2; dead letters are never kept in state, only sent between operators).
 */
public final class DeadLetterSerializer extends ImmutableTypeSerializer<DeadLetter> {
    private static final long serialVersionUID = 1L;

    public static final DeadLetterSerializer INSTANCE = new DeadLetterSerializer();

    private DeadLetterSerializer() {}

    @Override
    public DeadLetter createInstance() {
        return new DeadLetter(
                SourceRecordSerializer.INSTANCE.createInstance(), DeadLetterReason.PARSE_ERROR, "");
    }

    @Override
    public void serialize(DeadLetter d, DataOutputView out) throws IOException {
        SourceRecordSerializer.INSTANCE.serialize(d.source(), out);
        out.writeUTF(d.reason().code());
        byte[] error = d.error().getBytes(StandardCharsets.UTF_8);
        out.writeInt(error.length);
        out.write(error);
        out.writeBoolean(d.schemaFingerprint() != null);
        if (d.schemaFingerprint() != null) {
            out.writeUTF(d.schemaFingerprint());
        }
    }

    @Override
    public DeadLetter deserialize(DataInputView in) throws IOException {
        SourceRecord source = SourceRecordSerializer.INSTANCE.deserialize(in);
        DeadLetterReason reason;
        try {
            reason = DeadLetterReason.ofCode(in.readUTF());
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt DeadLetter: " + e.getMessage(), e);
        }
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt DeadLetter: message length " + n);
        }
        byte[] error = new byte[n];
        in.readFully(error);
        String fingerprint = in.readBoolean() ? in.readUTF() : null;
        return new DeadLetter(
                source, reason, new String(error, StandardCharsets.UTF_8), fingerprint);
    }

    @Override
    public TypeSerializerSnapshot<DeadLetter> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The versioned snapshot of {@link DeadLetterSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<DeadLetter> {
        /** The serialized layout version; bump it (and keep reading old data) on any change. */
        public static final int VERSION = 2;

        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }

    /** Type information that uses this serializer. */
    public static TypeInformation<DeadLetter> typeInfo() {
        return new SerializerTypeInfo<>(DeadLetter.class, INSTANCE);
    }
}
