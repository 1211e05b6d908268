package io.tfstream.operators.parse;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.runtime.state.StateInitializationContext;

/**
 * The schema file in force of each batch-and-parse subtask, in union operator state ({@code
 * schema.update: poll}): every subtask writes its own entry (subtask index, the checkpoint at which
 * it switched to the schema, 0 for the configured one, file name, bytes). On restore a subtask
 * takes its own entry, so it parses with the schema it had at the checkpoint; after a change of
 * parallelism, where a subtask may have no entry of its own, it takes the most recent switch.
 * Entries are versioned byte arrays ({@link #VERSION}).
 */
@Internal
public final class SchemaInForceState {
    /** The entry layout version; an entry of another version is refused. */
    public static final int VERSION = 1;

    static final String NAME = "schema-in-force";

    /** One subtask's schema in force. */
    public record Entry(int subtask, long switchedAt, String fileName, byte[] content) {}

    private final ListState<byte[]> state;
    private final Entry restored;

    private SchemaInForceState(ListState<byte[]> state, Entry restored) {
        this.state = state;
        this.restored = restored;
    }

    /** Opens the state and picks the entry {@code subtask} restores with, if any. */
    public static SchemaInForceState open(StateInitializationContext context, int subtask)
            throws Exception {
        ListState<byte[]> state =
                context.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>(
                                        NAME, BytePrimitiveArraySerializer.INSTANCE));
        Entry pick = null;
        if (context.isRestored()) {
            Iterable<byte[]> all = state.get();
            if (all != null) {
                for (byte[] b : all) {
                    pick = better(pick, decode(b), subtask);
                }
            }
        }
        return new SchemaInForceState(state, pick);
    }

    /** Own entry first; else the most recent switch (ties: the lowest subtask index). */
    static Entry better(Entry a, Entry b, int subtask) {
        if (a == null) {
            return b;
        }
        if ((a.subtask() == subtask) != (b.subtask() == subtask)) {
            return a.subtask() == subtask ? a : b;
        }
        if (a.switchedAt() != b.switchedAt()) {
            return a.switchedAt() > b.switchedAt() ? a : b;
        }
        return a.subtask() <= b.subtask() ? a : b;
    }

    /** The entry restored from the checkpoint, or null on a fresh start. */
    public Entry restored() {
        return restored;
    }

    /** Writes this subtask's schema in force for the checkpoint being taken. */
    public void snapshot(Entry e) throws Exception {
        state.update(List.of(encode(e)));
    }

    static byte[] encode(Entry e) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(e.content().length + 64);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(VERSION);
        out.writeInt(e.subtask());
        out.writeLong(e.switchedAt());
        out.writeUTF(e.fileName());
        out.writeInt(e.content().length);
        out.write(e.content());
        out.flush();
        return bytes.toByteArray();
    }

    static Entry decode(byte[] b) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException(
                    "state "
                            + NAME
                            + " was written in layout version "
                            + version
                            + ", this build reads version "
                            + VERSION);
        }
        int subtask = in.readInt();
        long switchedAt = in.readLong();
        String fileName = in.readUTF();
        int n = in.readInt();
        if (n < 0 || n > b.length) {
            throw new IOException("corrupt " + NAME + " entry: content length " + n);
        }
        byte[] content = new byte[n];
        in.readFully(content);
        return new Entry(subtask, switchedAt, fileName, content);
    }
}
