package io.tfstream.operators.deadletter;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.operators.types.ImmutableTypeSerializer;
import io.tfstream.operators.types.SerializerTypeInfo;
import io.tfstream.operators.types.VersionedSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of {@link DeadLetter}: the source record ({@link SourceRecordSerializer}'s layout
 * of the same number, 2 for this layout 3), the reason code and the message as length-prefixed
 * UTF-8 (messages quote record bytes and may exceed what {@code writeUTF} holds), then from layout
 * 3 on the schema fingerprint (a presence flag, then UTF).
 */
@Internal
public final class DeadLetterSerializer extends ImmutableTypeSerializer<DeadLetter> {
    private static final long serialVersionUID = 1L;

    /** The serializer of the current layout, {@link Snapshot#VERSION}. */
    public static final DeadLetterSerializer INSTANCE = new DeadLetterSerializer(3);

    private static final DeadLetterSerializer LAYOUT_1 = new DeadLetterSerializer(1);
    private static final DeadLetterSerializer LAYOUT_2 = new DeadLetterSerializer(2);

    private final int layout;
    private final transient SourceRecordSerializer records;

    private DeadLetterSerializer(int layout) {
        this.layout = layout;
        // Layout 3 added the fingerprint after a record of SourceRecord layout 2.
        this.records = SourceRecordSerializer.ofLayout(Math.min(layout, 2));
    }

    /** The serializer that reads and writes layout {@code version} (1 to 3). */
    public static DeadLetterSerializer ofLayout(int version) {
        return switch (version) {
            case 1 -> LAYOUT_1;
            case 2 -> LAYOUT_2;
            case 3 -> INSTANCE;
            default -> throw new IllegalArgumentException("no DeadLetter layout " + version);
        };
    }

    @Override
    public DeadLetter createInstance() {
        return new DeadLetter(
                SourceRecordSerializer.INSTANCE.createInstance(), DeadLetterReason.PARSE_ERROR, "");
    }

    @Override
    public void serialize(DeadLetter d, DataOutputView out) throws IOException {
        records.serialize(d.source(), out);
        out.writeUTF(d.reason().code());
        byte[] error = d.error().getBytes(StandardCharsets.UTF_8);
        out.writeInt(error.length);
        out.write(error);
        if (layout >= 3) {
            out.writeBoolean(d.schemaFingerprint() != null);
            if (d.schemaFingerprint() != null) {
                out.writeUTF(d.schemaFingerprint());
            }
        }
    }

    @Override
    public DeadLetter deserialize(DataInputView in) throws IOException {
        SourceRecord source = records.deserialize(in);
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
        String fingerprint = layout >= 3 && in.readBoolean() ? in.readUTF() : null;
        return new DeadLetter(
                source, reason, new String(error, StandardCharsets.UTF_8), fingerprint);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetterSerializer s && s.layout == layout;
    }

    @Override
    public int hashCode() {
        return 31 * DeadLetterSerializer.class.hashCode() + layout;
    }

    /** The singletons stay singletons (and get their record serializer) across serialization. */
    private Object readResolve() {
        return ofLayout(layout);
    }

    @Override
    public TypeSerializerSnapshot<DeadLetter> snapshotConfiguration() {
        return new Snapshot();
    }

    /**
     * The versioned snapshot of {@link DeadLetterSerializer}. 2: the source record in {@link
     * SourceRecordSerializer}'s layout 2; 3: the schema fingerprint; layouts 1 and 2 are still
     * read.
     */
    public static final class Snapshot extends VersionedSnapshot<DeadLetter> {
        /** The serialized layout version; bump it (and keep reading old data) on any change. */
        public static final int VERSION = 3;

        public Snapshot() {
            super(VERSION, 1, DeadLetterSerializer::ofLayout);
        }
    }

    /** Type information that uses this serializer. */
    public static TypeInformation<DeadLetter> typeInfo() {
        return new SerializerTypeInfo<>(DeadLetter.class, INSTANCE);
    }
}
