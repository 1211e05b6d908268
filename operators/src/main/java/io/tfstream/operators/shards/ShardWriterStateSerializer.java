package io.tfstream.operators.shards;

import io.tfstream.shards.ShardEncoder;
import io.tfstream.shards.ShardStats;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;

/**
 * Serializes {@link ShardWriterState}. Version {@link #VERSION}: a kind byte; a lineage: job id,
 * subtask, checkpoint id, next counter; an open shard: bucket, name, bucket end, the store's
 * persisted bytes (length-prefixed), the encoder's state (its own version first), {@link
 * ShardStats}, opened-at time, segments, from version 5 on the schema fingerprint (a presence flag,
 * then UTF; version 4 is still read, without it), from version 6 on the shard's feature statistics
 * (a presence flag, then length-prefixed bytes; versions 4 and 5 are read without them). Versions 1
 * to 3 were the writer state of the compacting sink (Flink's {@code FileWriterBucketState}) and are
 * refused with what to do.
 */
@Internal
public final class ShardWriterStateSerializer
        implements SimpleVersionedSerializer<ShardWriterState> {
    static final int VERSION = 6;
    private static final int MAX_FEATURE_BYTES = 1 << 30;
    private static final byte LINEAGE = 1;
    private static final byte OPEN = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ShardWriterState state) throws IOException {
        // an open shard's persisted tail and statistics are arrays already: counted, then copied
        // once into the result
        return StateBytes.counted(out -> write(state, out));
    }

    private static void write(ShardWriterState state, DataOutput out) throws IOException {
        if (state instanceof ShardWriterState.Lineage l) {
            out.writeByte(LINEAGE);
            out.writeUTF(l.jobId());
            out.writeInt(l.subtask());
            out.writeLong(l.checkpointId());
            out.writeLong(l.nextCounter());
        } else {
            ShardWriterState.Open o = (ShardWriterState.Open) state;
            out.writeByte(OPEN);
            out.writeUTF(o.bucket());
            out.writeUTF(o.name());
            out.writeLong(o.bucketEnd());
            out.writeInt(o.persisted().length);
            out.write(o.persisted());
            o.encoder().writeTo(out);
            o.stats().writeTo(out);
            out.writeLong(o.openedAt());
            out.writeInt(o.segments());
            out.writeBoolean(o.schemaFingerprint() != null);
            if (o.schemaFingerprint() != null) {
                out.writeUTF(o.schemaFingerprint());
            }
            ShardStateVersions.writeOptionalBytes(out, o.features());
        }
    }

    @Override
    public ShardWriterState deserialize(int version, byte[] serialized) throws IOException {
        ShardStateVersions.check(version, 4, VERSION, "shard writer state");
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        byte kind = in.readByte();
        if (kind == LINEAGE) {
            return new ShardWriterState.Lineage(
                    in.readUTF(), in.readInt(), in.readLong(), in.readLong());
        }
        if (kind != OPEN) {
            throw new IOException("unknown kind " + kind + " of a shard writer state");
        }
        String bucket = in.readUTF();
        String name = in.readUTF();
        long end = in.readLong();
        byte[] persisted =
                ShardStateVersions.readBytes(in, Integer.MAX_VALUE, "persisted shard " + name);
        ShardEncoder.State encoder = ShardEncoder.State.readFrom(in);
        ShardStats stats = ShardStats.readFrom(in);
        long openedAt = in.readLong();
        int segments = in.readInt();
        String fingerprint = version >= 5 && in.readBoolean() ? in.readUTF() : null;
        byte[] features =
                version >= 6
                        ? ShardStateVersions.readOptionalBytes(
                                in, MAX_FEATURE_BYTES, "feature statistics of shard " + name)
                        : null;
        return new ShardWriterState.Open(
                bucket,
                name,
                end,
                persisted,
                encoder,
                stats,
                openedAt,
                segments,
                fingerprint,
                features);
    }
}
