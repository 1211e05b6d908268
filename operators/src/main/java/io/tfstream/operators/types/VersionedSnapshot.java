package io.tfstream.operators.types;

import java.io.IOException;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The snapshot of a serializer without configuration whose data layout has a version: state written
 * by another layout version is refused with a message that names both versions rather than read as
 * garbage, unless the serializer still reads that older layout ({@link #VersionedSnapshot(int, int,
 * IntFunction)}): then the old snapshot restores a serializer of the old layout and Flink migrates
 * the state to the current one.
 */
@Internal
public abstract class VersionedSnapshot<T> implements TypeSerializerSnapshot<T> {
    private final int version;
    private final int oldestReadable;
    private final IntFunction<TypeSerializer<T>> serializers;
    private int readVersion;

    protected VersionedSnapshot(int version, Supplier<TypeSerializer<T>> serializer) {
        this(version, version, v -> serializer.get());
    }

    /**
     * A snapshot of layout {@code version} whose serializer also reads the layouts from {@code
     * oldestReadable} on: {@code serializers} gives the serializer of each such layout.
     */
    protected VersionedSnapshot(
            int version, int oldestReadable, IntFunction<TypeSerializer<T>> serializers) {
        if (oldestReadable < 1 || oldestReadable > version) {
            throw new IllegalArgumentException(
                    "oldest readable layout " + oldestReadable + " outside 1.." + version);
        }
        this.version = version;
        this.oldestReadable = oldestReadable;
        this.serializers = serializers;
        this.readVersion = version;
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
        if (readVersion < oldestReadable || readVersion > version) {
            throw new IOException(
                    getClass().getName()
                            + ": state was written in layout version "
                            + readVersion
                            + ", this build reads "
                            + (oldestReadable == version
                                    ? "version " + version
                                    : "versions " + oldestReadable + " to " + version));
        }
        this.readVersion = readVersion;
    }

    /** The layout version of the data this snapshot describes (read or current). */
    public int layoutVersion() {
        return readVersion;
    }

    @Override
    public TypeSerializer<T> restoreSerializer() {
        return serializers.apply(readVersion);
    }

    @Override
    public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
            TypeSerializerSnapshot<T> oldSnapshot) {
        if (oldSnapshot.getClass() != getClass()) {
            return TypeSerializerSchemaCompatibility.incompatible();
        }
        int old = ((VersionedSnapshot<?>) oldSnapshot).readVersion;
        if (old == version) {
            return TypeSerializerSchemaCompatibility.compatibleAsIs();
        }
        return old >= oldestReadable && old < version
                ? TypeSerializerSchemaCompatibility.compatibleAfterMigration()
                : TypeSerializerSchemaCompatibility.incompatible();
    }
}
