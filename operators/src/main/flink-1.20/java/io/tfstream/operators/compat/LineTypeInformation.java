package io.tfstream.operators.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * {@link TypeInformation} of the Flink line built for: 1.20 still declares {@code
 * createSerializer(ExecutionConfig)} abstract; it answers as {@code
 * createSerializer(SerializerConfig)} does.
 *
 * @param <T> the type described
 */
@Internal
public abstract class LineTypeInformation<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    @Override
    @Deprecated
    public TypeSerializer<T> createSerializer(ExecutionConfig config) {
        return createSerializer(config.getSerializerConfig());
    }
}
