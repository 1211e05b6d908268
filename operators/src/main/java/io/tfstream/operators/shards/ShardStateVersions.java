package io.tfstream.operators.shards;

import java.io.DataOutput;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputDeserializer;

/** Version checks and bounded reads shared by the shard sink's state serializers. */
final class ShardStateVersions {
    private ShardStateVersions() {}

    /**
     * Accepts {@code version == current}; an older one is state of the compacting shard sink
     * (Flink's file sink state), which this sink cannot continue.
     */
    static void check(int version, int current, String what) throws IOException {
        check(version, current, current, what);
    }

    /**
     * Accepts {@code oldestReadable <= version <= current} (layouts of this sink that the
     * serializer still reads); older ones as {@link #check(int, int, String)}.
     */
    static void check(int version, int oldestReadable, int current, String what)
            throws IOException {
        if (version >= oldestReadable && version <= current) {
            return;
        }
        if (version < oldestReadable) {
            throw new IOException(
                    "version "
                            + version
                            + " of a "
                            + what
                            + " is state of an older tfstream shard sink (with compaction), which"
                            + " this one cannot continue: stop the old job with --drain (it"
                            + " finishes and commits every shard) and start this one without its"
                            + " state");
        }
        throw new IOException(
                "unknown version "
                        + version
                        + " of a "
                        + what
                        + " (this build reads "
                        + current
                        + "): state of a newer tfstream");
    }

    /** A length-prefixed byte array, its length checked before allocation. */
    static byte[] readBytes(DataInputDeserializer in, int max, String what) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > max || length > in.available()) {
            throw new IOException("bad length " + length + " of the " + what + " bytes");
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    /** {@code bytes} (may be null) as a presence flag, then length-prefixed. */
    static void writeOptionalBytes(DataOutput out, byte[] bytes) throws IOException {
        out.writeBoolean(bytes != null);
        if (bytes != null) {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    /** What {@link #writeOptionalBytes} wrote: null, or the bytes, their length checked. */
    static byte[] readOptionalBytes(DataInputDeserializer in, int max, String what)
            throws IOException {
        return in.readBoolean() ? readBytes(in, max, what) : null;
    }
}
