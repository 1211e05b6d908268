package io.tfstream.operators.shards;

import io.tfstream.shards.ShardManifest;
import io.tfstream.shards.ShardStats;
import io.tfstream.shards.ShardSuccessMarker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Serializes {@link ShardCommittable}s (writer results, coordinator output, committer state).
 * Version {@link #VERSION}: a kind byte; a shard: bucket, name, the store's closed bytes, {@link
 * ShardStats}, CRC32C, file bytes, segments, from version 4 on the schema fingerprint (a presence
 * flag, then UTF; version 3 is still read, without it), from version 6 on its feature statistics (a
 * presence flag, then length-prefixed bytes; earlier versions are read without them), from version
 * 7 on its history (a presence flag, then id and checkpoint); a marker: bucket directory, bucket,
 * end, shard names, from version 5 on the job ids whose shards it lists (earlier: none, every
 * shard), from version 7 on its lineage (a count, then per history its id and the last checkpoint
 * it counts up to); from version 7 also a retirement: bucket, shard name, the superseded file's
 * resume bytes, the restored checkpoint and the job id. Version 8 replaces a shard's feature
 * statistics by a tag: 0 none, 1 the bytes inline (length-prefixed; what a restored committable of
 * version 6 or 7 carries), 2 the path of the file the writer staged them in (UTF). Versions 1 and 2
 * were the committables of the compacting sink (Flink's {@code FileSinkCommittable}) and are
 * refused with what to do.
 */
@Internal
public final class ShardCommittableSerializer
        implements SimpleVersionedSerializer<ShardCommittable> {
    static final int VERSION = 8;
    private static final byte NO_FEATURES = 0;
    private static final byte INLINE_FEATURES = 1;
    private static final byte STAGED_FEATURES = 2;
    private static final int MAX_FEATURE_BYTES = 1 << 30;
    private static final byte SHARD = 1;
    private static final byte MARKER = 2;
    private static final byte RETIRE = 3;
    private static final int MAX_CLOSED_BYTES = 64 << 20;
    private static final int MAX_MARKER_SHARDS = 1 << 20;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ShardCommittable c) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        if (c instanceof ShardCommittable.Shard s) {
            out.writeByte(SHARD);
            out.writeUTF(s.bucket());
            out.writeUTF(s.name());
            out.writeInt(s.closed().length);
            out.write(s.closed());
            s.stats().writeTo(out);
            out.writeLong(s.crc32c());
            out.writeLong(s.fileBytes());
            out.writeInt(s.segments());
            out.writeBoolean(s.schemaFingerprint() != null);
            if (s.schemaFingerprint() != null) {
                out.writeUTF(s.schemaFingerprint());
            }
            if (s.features() != null) {
                out.writeByte(INLINE_FEATURES);
                out.writeInt(s.features().length);
                out.write(s.features());
            } else if (s.featuresFile() != null) {
                out.writeByte(STAGED_FEATURES);
                out.writeUTF(s.featuresFile());
            } else {
                out.writeByte(NO_FEATURES);
            }
            out.writeBoolean(s.history() != null);
            if (s.history() != null) {
                out.writeUTF(s.history().id());
                out.writeLong(s.history().checkpoint());
            }
        } else if (c instanceof ShardCommittable.Retire r) {
            out.writeByte(RETIRE);
            out.writeUTF(r.bucket());
            out.writeUTF(r.name());
            out.writeInt(r.persisted().length);
            out.write(r.persisted());
            out.writeLong(r.restoredCheckpoint());
            out.writeUTF(r.jobId());
        } else {
            ShardCommittable.Marker m = (ShardCommittable.Marker) c;
            out.writeByte(MARKER);
            out.writeUTF(m.bucketDir());
            out.writeUTF(m.bucket());
            out.writeLong(m.endMs());
            out.writeInt(m.shards().size());
            for (String s : m.shards()) {
                out.writeUTF(s);
            }
            out.writeInt(m.jobs().size());
            for (String j : m.jobs()) {
                out.writeUTF(j);
            }
            out.writeInt(m.histories().size());
            for (ShardSuccessMarker.Cut h : m.histories()) {
                out.writeUTF(h.id());
                out.writeLong(h.through());
            }
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public ShardCommittable deserialize(int version, byte[] serialized) throws IOException {
        ShardStateVersions.check(version, 3, VERSION, "shard committable");
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        byte kind = in.readByte();
        if (kind == SHARD) {
            String bucket = in.readUTF();
            String name = in.readUTF();
            byte[] closed = ShardStateVersions.readBytes(in, MAX_CLOSED_BYTES, "closed shard");
            ShardStats stats = ShardStats.readFrom(in);
            long crc = in.readLong();
            long fileBytes = in.readLong();
            int segments = in.readInt();
            String fingerprint = version >= 4 && in.readBoolean() ? in.readUTF() : null;
            byte[] features = null;
            String featuresFile = null;
            String what = "feature statistics of shard " + name;
            if (version >= 8) {
                byte tag = in.readByte();
                if (tag == INLINE_FEATURES) {
                    features = ShardStateVersions.readBytes(in, MAX_FEATURE_BYTES, what);
                } else if (tag == STAGED_FEATURES) {
                    featuresFile = in.readUTF();
                } else if (tag != NO_FEATURES) {
                    throw new IOException("unknown tag " + tag + " of the " + what);
                }
            } else if (version >= 6) {
                features = ShardStateVersions.readOptionalBytes(in, MAX_FEATURE_BYTES, what);
            }
            ShardManifest.History history =
                    version >= 7 && in.readBoolean()
                            ? new ShardManifest.History(in.readUTF(), in.readLong())
                            : null;
            return new ShardCommittable.Shard(
                    bucket,
                    name,
                    closed,
                    stats,
                    crc,
                    fileBytes,
                    segments,
                    fingerprint,
                    features,
                    featuresFile,
                    history);
        }
        if (kind == RETIRE && version >= 7) {
            return new ShardCommittable.Retire(
                    in.readUTF(),
                    in.readUTF(),
                    ShardStateVersions.readBytes(in, MAX_CLOSED_BYTES, "superseded shard"),
                    in.readLong(),
                    in.readUTF());
        }
        if (kind != MARKER) {
            throw new IOException("unknown kind " + kind + " of a shard committable");
        }
        String dir = in.readUTF();
        String bucket = in.readUTF();
        long end = in.readLong();
        List<String> shards = readNames(in, in.readInt());
        List<String> jobs = version >= 5 ? readNames(in, in.readInt()) : List.of();
        List<ShardSuccessMarker.Cut> histories = new ArrayList<>();
        if (version >= 7) {
            int n = in.readInt();
            if (n < 0 || n > MAX_MARKER_SHARDS) {
                throw new IOException("bad history count " + n + " of a _SUCCESS marker request");
            }
            for (int i = 0; i < n; i++) {
                histories.add(new ShardSuccessMarker.Cut(in.readUTF(), in.readLong()));
            }
        }
        return new ShardCommittable.Marker(dir, bucket, end, shards, jobs, histories);
    }

    private static List<String> readNames(DataInputDeserializer in, int n) throws IOException {
        if (n < 0 || n > MAX_MARKER_SHARDS) {
            throw new IOException("bad name count " + n + " of a _SUCCESS marker request");
        }
        List<String> names = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            names.add(in.readUTF());
        }
        return names;
    }
}
