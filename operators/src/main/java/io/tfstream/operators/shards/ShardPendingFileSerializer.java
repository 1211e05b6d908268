package io.tfstream.operators.shards;

import io.tfstream.shards.ShardStats;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.PendingFileRecoverable;

/**
 * Serializes {@link ShardPendingFile}s: version 1 is the wrapped recoverable (its serializer's
 * version and bytes), then the {@link ShardStats}, CRC32C, file size and part count. Rejects other
 * versions and anything that is not a {@link ShardPendingFile}.
 */
final class ShardPendingFileSerializer
        implements SimpleVersionedSerializer<PendingFileRecoverable> {
    static final int VERSION = 1;

    private final SimpleVersionedSerializer<PendingFileRecoverable> delegate;

    ShardPendingFileSerializer(SimpleVersionedSerializer<PendingFileRecoverable> delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(PendingFileRecoverable pending) throws IOException {
        if (!(pending instanceof ShardPendingFile)) {
            throw new IllegalArgumentException(
                    "the shard sink commits only its own pending files, got " + pending);
        }
        ShardPendingFile p = (ShardPendingFile) pending;
        byte[] inner = delegate.serialize(p.delegate());
        DataOutputSerializer out = new DataOutputSerializer(inner.length + 128);
        out.writeInt(delegate.getVersion());
        out.writeInt(inner.length);
        out.write(inner);
        p.stats().writeTo(out);
        out.writeLong(p.crc32c());
        out.writeLong(p.fileBytes());
        out.writeInt(p.parts());
        return out.getCopyOfBuffer();
    }

    @Override
    public PendingFileRecoverable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "unknown version "
                            + version
                            + " of a shard pending file (this build reads "
                            + VERSION
                            + ")");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int innerVersion = in.readInt();
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("bad length " + length + " of a shard pending file");
        }
        byte[] inner = new byte[length];
        in.readFully(inner);
        PendingFileRecoverable delegatePending = delegate.deserialize(innerVersion, inner);
        ShardStats stats = ShardStats.readFrom(in);
        long crc = in.readLong();
        long bytes = in.readLong();
        int parts = in.readInt();
        return new ShardPendingFile(delegatePending, stats, crc, bytes, parts);
    }
}
