package io.tfstream.operators.validation;

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
 * The serializer of {@link WindowPartial}. Layout 2: split (int), window start and end (long), late
 * count (long), accumulator version (int), accumulator length (int) and bytes, schema fingerprint
 * (UTF), schema length (int) and bytes. Layout 1 (before live schema changes) ends after the
 * accumulator; state written in it is read with an empty fingerprint and migrated.
 */
@Internal
public final class WindowPartialSerializer extends ImmutableTypeSerializer<WindowPartial> {
    private static final long serialVersionUID = 1L;

    public static final WindowPartialSerializer INSTANCE = new WindowPartialSerializer(2);

    /** The reader of layout 1 (state of a job before live schema changes). */
    static final WindowPartialSerializer LAYOUT_1 = new WindowPartialSerializer(1);

    /** Largest accumulator accepted when reading (a corrupt length must not allocate). */
    static final int MAX_ACCUMULATOR_BYTES = 1 << 30;

    private final int layout;

    private WindowPartialSerializer(int layout) {
        this.layout = layout;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WindowPartialSerializer w && w.layout == layout;
    }

    @Override
    public int hashCode() {
        return 31 * WindowPartialSerializer.class.hashCode() + layout;
    }

    public static TypeInformation<WindowPartial> typeInfo() {
        return new SerializerTypeInfo<>(WindowPartial.class, INSTANCE);
    }

    @Override
    public WindowPartial createInstance() {
        return new WindowPartial(-1, 0, 1, 0, 0, new byte[0]);
    }

    @Override
    public void serialize(WindowPartial p, DataOutputView out) throws IOException {
        out.writeInt(p.split());
        out.writeLong(p.windowStart());
        out.writeLong(p.windowEnd());
        out.writeLong(p.lateCount());
        out.writeInt(p.version());
        out.writeInt(p.accumulator().length);
        out.write(p.accumulator());
        if (layout >= 2) {
            out.writeUTF(p.fingerprint());
            out.writeInt(p.schema().length);
            out.write(p.schema());
        }
    }

    @Override
    public WindowPartial deserialize(DataInputView in) throws IOException {
        int split = in.readInt();
        long start = in.readLong();
        long end = in.readLong();
        long late = in.readLong();
        int version = in.readInt();
        int n = in.readInt();
        if (n < 0 || n > MAX_ACCUMULATOR_BYTES) {
            throw new IOException(
                    "corrupt window partial: accumulator length "
                            + n
                            + " not in [0, "
                            + MAX_ACCUMULATOR_BYTES
                            + "]");
        }
        byte[] acc = new byte[n];
        in.readFully(acc);
        String fingerprint = "";
        byte[] schema = new byte[0];
        if (layout >= 2) {
            fingerprint = in.readUTF();
            int m = in.readInt();
            if (m < 0 || m > MAX_ACCUMULATOR_BYTES) {
                throw new IOException(
                        "corrupt window partial: schema length "
                                + m
                                + " not in [0, "
                                + MAX_ACCUMULATOR_BYTES
                                + "]");
            }
            schema = new byte[m];
            in.readFully(schema);
        }
        try {
            return new WindowPartial(split, start, end, late, version, acc, fingerprint, schema);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt window partial: " + e.getMessage(), e);
        }
    }

    @Override
    public TypeSerializerSnapshot<WindowPartial> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The versioned snapshot of {@link WindowPartialSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<WindowPartial> {
        /** The serialized layout version; bump it on any change. */
        public static final int VERSION = 2;

        public Snapshot() {
            super(VERSION, 1, v -> v == 1 ? LAYOUT_1 : INSTANCE);
        }
    }
}
