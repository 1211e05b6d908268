package io.tfstream.operators.validation;

import io.tfstream.api.model.ValidationOutput;
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

/** The serializer of {@link ValidationOutput}: key and value, each length-prefixed bytes. */
@Internal
public final class ValidationOutputSerializer extends ImmutableTypeSerializer<ValidationOutput> {
    private static final long serialVersionUID = 1L;

    public static final ValidationOutputSerializer INSTANCE = new ValidationOutputSerializer();

    static final int MAX_BYTES = 1 << 30;

    private ValidationOutputSerializer() {}

    public static TypeInformation<ValidationOutput> typeInfo() {
        return new SerializerTypeInfo<>(ValidationOutput.class, INSTANCE);
    }

    @Override
    public ValidationOutput createInstance() {
        return new ValidationOutput("", new byte[0]);
    }

    @Override
    public void serialize(ValidationOutput o, DataOutputView out) throws IOException {
        write(o.key().getBytes(StandardCharsets.UTF_8), out);
        write(o.value(), out);
    }

    private static void write(byte[] b, DataOutputView out) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    @Override
    public ValidationOutput deserialize(DataInputView in) throws IOException {
        String key = new String(read(in), StandardCharsets.UTF_8);
        return new ValidationOutput(key, read(in));
    }

    private static byte[] read(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_BYTES) {
            throw new IOException(
                    "corrupt validation output: length " + n + " not in [0, " + MAX_BYTES + "]");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    @Override
    public TypeSerializerSnapshot<ValidationOutput> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The versioned snapshot of {@link ValidationOutputSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<ValidationOutput> {
        /** The serialized layout version; bump it on any change. */
        public static final int VERSION = 1;

        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }
}
