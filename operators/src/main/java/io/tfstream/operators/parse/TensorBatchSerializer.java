package io.tfstream.operators.parse;

import io.tfstream.operators.types.ImmutableTypeSerializer;
import io.tfstream.operators.types.SerializerTypeInfo;
import io.tfstream.operators.types.VersionedSnapshot;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.proto.v1.TensorBatch;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of {@link EncodedTensorBatch} payloads: the tensors half and the metadata message,
 * each length-prefixed, then the grouping key (length, -1 for none).
 */
@Internal
public final class TensorBatchSerializer extends ImmutableTypeSerializer<EncodedTensorBatch> {
    private static final long serialVersionUID = 1L;

    public static final TensorBatchSerializer INSTANCE = new TensorBatchSerializer();

    private TensorBatchSerializer() {}

    @Override
    public EncodedTensorBatch createInstance() {
        return new EncodedTensorBatch(new byte[0], TensorBatch.getDefaultInstance());
    }

    @Override
    public void serialize(EncodedTensorBatch b, DataOutputView out) throws IOException {
        out.writeInt(b.tensors().length);
        out.write(b.tensors());
        byte[] meta = b.meta().toByteArray();
        out.writeInt(meta.length);
        out.write(meta);
        byte[] key = b.key();
        out.writeInt(key == null ? -1 : key.length);
        if (key != null) {
            out.write(key);
        }
    }

    @Override
    public EncodedTensorBatch deserialize(DataInputView in) throws IOException {
        byte[] tensors = read(in, false);
        TensorBatch meta = TensorBatch.parseFrom(read(in, false));
        return new EncodedTensorBatch(tensors, meta, read(in, true));
    }

    private static byte[] read(DataInputView in, boolean nullable) throws IOException {
        int n = in.readInt();
        if (nullable && n == -1) {
            return null;
        }
        if (n < 0) {
            throw new IOException("corrupt tensor payload: length " + n);
        }
        byte[] bytes = new byte[n];
        in.readFully(bytes);
        return bytes;
    }

    @Override
    public TypeSerializerSnapshot<EncodedTensorBatch> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The versioned snapshot of {@link TensorBatchSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<EncodedTensorBatch> {
        /**
         * The serialized layout version; bump it on any change. 2: the grouping key was added.
         * Payloads are never in keyed or operator state, only in flight to the Kafka writer, so
         * only an unaligned checkpoint's in-flight data can hold version 1: it is refused.
         */
        public static final int VERSION = 2;

        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }

    /** Type information that uses this serializer. */
    public static TypeInformation<EncodedTensorBatch> typeInfo() {
        return new SerializerTypeInfo<>(EncodedTensorBatch.class, INSTANCE);
    }
}
