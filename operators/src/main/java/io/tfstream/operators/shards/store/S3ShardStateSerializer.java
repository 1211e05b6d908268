package io.tfstream.operators.shards.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Version 1 of {@link S3ShardState}: a kind byte ('P' persisted, 'C' closed), target, token, upload
 * id (flag + string), parts (count, then number, ETag, size each), then bytes in parts and the tail
 * (persisted) or the size (closed). Lengths and counts are checked before allocation; other
 * versions are refused. {@link #toBytes}/{@link #fromBytes} add Flink's version header.
 */
@Internal
public final class S3ShardStateSerializer implements SimpleVersionedSerializer<S3ShardState> {
    public static final S3ShardStateSerializer INSTANCE = new S3ShardStateSerializer();

    static final int VERSION = 1;

    /** S3 allows 10 000 parts per upload. */
    static final int MAX_PARTS = 10_000;

    private static final byte PERSISTED = 'P';
    private static final byte CLOSED = 'C';

    private S3ShardStateSerializer() {}

    public static byte[] toBytes(S3ShardState state) throws IOException {
        return SimpleVersionedSerialization.writeVersionAndSerialize(INSTANCE, state);
    }

    public static S3ShardState fromBytes(byte[] bytes) throws IOException {
        return SimpleVersionedSerialization.readVersionAndDeSerialize(INSTANCE, bytes);
    }

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(S3ShardState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        boolean persisted = state instanceof S3ShardState.Persisted;
        out.writeByte(persisted ? PERSISTED : CLOSED);
        out.writeUTF(state.target());
        out.writeUTF(state.token());
        String uploadId =
                persisted
                        ? ((S3ShardState.Persisted) state).uploadId()
                        : ((S3ShardState.Closed) state).uploadId();
        out.writeBoolean(uploadId != null);
        if (uploadId != null) {
            out.writeUTF(uploadId);
        }
        List<S3ShardState.Part> parts =
                persisted
                        ? ((S3ShardState.Persisted) state).parts()
                        : ((S3ShardState.Closed) state).parts();
        out.writeInt(parts.size());
        for (S3ShardState.Part part : parts) {
            out.writeInt(part.number());
            out.writeUTF(part.etag());
            out.writeLong(part.size());
        }
        if (state instanceof S3ShardState.Persisted p) {
            out.writeLong(p.bytesInParts());
            out.writeInt(p.tail().length);
            out.write(p.tail());
        } else {
            out.writeLong(((S3ShardState.Closed) state).size());
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public S3ShardState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "S3 shard state of version "
                            + version
                            + ", this build reads version "
                            + VERSION
                            + ": stop the job with --drain and start it without its state");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        byte kind = in.readByte();
        if (kind != PERSISTED && kind != CLOSED) {
            throw new IOException("S3 shard state: unknown kind " + kind);
        }
        String target = in.readUTF();
        String token = in.readUTF();
        String uploadId = in.readBoolean() ? in.readUTF() : null;
        int count = in.readInt();
        if (count < 0 || count > MAX_PARTS) {
            throw new IOException(
                    "S3 shard state of "
                            + target
                            + ": "
                            + count
                            + " parts, S3 allows "
                            + MAX_PARTS);
        }
        List<S3ShardState.Part> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            parts.add(new S3ShardState.Part(in.readInt(), in.readUTF(), in.readLong()));
        }
        if (kind == CLOSED) {
            return new S3ShardState.Closed(target, token, uploadId, parts, in.readLong());
        }
        long bytesInParts = in.readLong();
        int tailLength = in.readInt();
        // The tail is below S3's minimum part size by construction; more means corrupt state.
        if (tailLength < 0 || tailLength > in.available()) {
            throw new IOException(
                    "S3 shard state of "
                            + target
                            + ": tail of "
                            + tailLength
                            + " bytes, only "
                            + in.available()
                            + " left");
        }
        byte[] tail = new byte[tailLength];
        in.readFully(tail);
        return new S3ShardState.Persisted(target, token, uploadId, parts, bytesInParts, tail);
    }
}
