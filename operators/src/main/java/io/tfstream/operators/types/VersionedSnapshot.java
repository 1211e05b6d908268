package io.tfstream.operators.types;

import java.io.IOException;
import java.util.function.Supplier;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The snapshot of a serializer without configuration whose data layout has a version: state written
 * by another layout version is refused with a message that names both versions rather than read as
 * garbage.
 */
public abstract class VersionedSnapshot<T> implements TypeSerializerSnapshot<T> {
    private final int version;
    private final Supplier<TypeSerializer<T>> serializer;

    protected VersionedSnapshot(int version, Supplier<TypeSerializer<T>> serializer) {
        this.version = version;
        this.serializer = serializer;
    }

    @Override
    public int getCurrentVersion() {
        return version;
    }

    @Override
    public void writeSnapshot(DataOutputView out) {}

    @Override
    public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader)
            throws IOException {
        if (readVersion != version) {
            throw new IOException(
                    getClass().getName()
                            + ": state was written in layout version "
                            + readVersion
                            + ", this build reads version "
                            + version);
        }
    }

    @Override
    public TypeSerializer<T> restoreSerializer() {
        return serializer.get();
    }

    @Override
    public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
            TypeSerializerSnapshot<T> oldSnapshot) {
        return oldSnapshot.getClass() == getClass() && oldSnapshot.getCurrentVersion() == version
                ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                : TypeSerializerSchemaCompatibility.incompatible();
    }
}
