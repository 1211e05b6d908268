package io.tfstream.operators.types;

import io.tfstream.operators.compat.LineTypeInformation;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information that always uses one hand-written serializer, so that no record type of the job
 * falls back to Kryo ({@code pipeline.generic-types: false} holds).
 */
@Internal
public final class SerializerTypeInfo<T> extends LineTypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    public SerializerTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
        this.type = Objects.requireNonNull(type);
        this.serializer = Objects.requireNonNull(serializer);
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public String toString() {
        return type.getSimpleName();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SerializerTypeInfo<?> t && t.type == type;
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof SerializerTypeInfo;
    }
}
