package io.tfstream.operators.shards;

import io.tfstream.shards.ShardStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter.PendingFileRecoverable;

/**
 * Serializes the shard sink's pending files. Version 1: a kind byte, then for a {@link
 * ShardPendingFile} the wrapped recoverable (its serializer's version and bytes), the {@link
 * ShardStats}, CRC32C, file size and part count; for a {@link ShardMarker} the bucket directory,
 * bucket, end and shard names. Rejects other versions and kinds, and foreign pending files.
 */
final class ShardPendingFileSerializer
        implements SimpleVersionedSerializer<PendingFileRecoverable> {
    static final int VERSION = 1;
    private static final byte FILE = 1;
    private static final byte MARKER = 2;
    private static final int MAX_MARKER_SHARDS = 1 << 20;

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
        if (pending instanceof ShardMarker) {
            ShardMarker m = (ShardMarker) pending;
            DataOutputSerializer out = new DataOutputSerializer(128);
            out.writeByte(MARKER);
            out.writeUTF(m.bucketDir().toString());
            out.writeUTF(m.bucket());
            out.writeLong(m.endMs());
            out.writeInt(m.shards().size());
            for (String s : m.shards()) {
                out.writeUTF(s);
            }
            return out.getCopyOfBuffer();
        }
        if (!(pending instanceof ShardPendingFile)) {
            throw new IllegalArgumentException(
                    "the shard sink commits only its own pending files, got " + pending);
        }
        ShardPendingFile p = (ShardPendingFile) pending;
        byte[] inner = delegate.serialize(p.delegate());
        DataOutputSerializer out = new DataOutputSerializer(inner.length + 128);
        out.writeByte(FILE);
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
        byte kind = in.readByte();
        if (kind == MARKER) {
            Path dir = new Path(in.readUTF());
            String bucket = in.readUTF();
            long end = in.readLong();
            int n = in.readInt();
            if (n < 0 || n > MAX_MARKER_SHARDS) {
                throw new IOException("bad shard count " + n + " of a _SUCCESS marker request");
            }
            List<String> shards = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                shards.add(in.readUTF());
            }
            return new ShardMarker(dir, bucket, end, shards);
        }
        if (kind != FILE) {
            throw new IOException("unknown kind " + kind + " of a shard pending file");
        }
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
