package io.tfstream.operators.types;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A serializer of an immutable, variable-length type: copies are the instance itself and reuse does
 * not apply, so a subclass writes only {@link #serialize} and {@link #deserialize}.
 */
@Internal
public abstract class ImmutableTypeSerializer<T> extends TypeSerializerSingleton<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public final void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }
}
