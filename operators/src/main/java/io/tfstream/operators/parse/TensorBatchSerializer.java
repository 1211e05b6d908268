package io.tfstream.operators.parse;

import io.tfstream.operators.types.ImmutableTypeSerializer;
import io.tfstream.operators.types.SerializerTypeInfo;
import io.tfstream.operators.types.VersionedSnapshot;
import io.tfstream.proto.v1.TensorBatch;
import java.io.IOException;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** The serializer of {@link TensorBatch} messages: length-prefixed protobuf wire bytes. */
public final class TensorBatchSerializer extends ImmutableTypeSerializer<TensorBatch> {
    private static final long serialVersionUID = 1L;

    public static final TensorBatchSerializer INSTANCE = new TensorBatchSerializer();

    private TensorBatchSerializer() {}

    @Override
    public TensorBatch createInstance() {
        return TensorBatch.getDefaultInstance();
    }

    @Override
    public void serialize(TensorBatch b, DataOutputView out) throws IOException {
        byte[] bytes = b.toByteArray();
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    @Override
    public TensorBatch deserialize(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt TensorBatch: length " + n);
        }
        byte[] bytes = new byte[n];
        in.readFully(bytes);
        return TensorBatch.parseFrom(bytes);
    }

    @Override
    public TypeSerializerSnapshot<TensorBatch> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The versioned snapshot of {@link TensorBatchSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<TensorBatch> {
        /** The serialized layout version; bump it (and keep reading old data) on any change. */
        public static final int VERSION = 1;

        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }

    /** Type information that uses this serializer. */
    public static TypeInformation<TensorBatch> typeInfo() {
        return new SerializerTypeInfo<>(TensorBatch.class, INSTANCE);
    }
}
