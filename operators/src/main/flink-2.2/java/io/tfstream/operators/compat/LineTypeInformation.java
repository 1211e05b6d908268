package io.tfstream.operators.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * {@link TypeInformation} of the Flink line built for: on 2.x its serializer comes from {@code
 * createSerializer(SerializerConfig)} alone.
 *
 * @param <T> the type described
 */
@Internal
public abstract class LineTypeInformation<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;
}
