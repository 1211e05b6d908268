package io.tfstream.operators.shards.store;

import io.tfstream.text.Quoted;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.fs.CloseableRegistry;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.state.DefaultOperatorStateBackend;
import org.apache.flink.runtime.state.DefaultOperatorStateBackendBuilder;
import org.apache.flink.runtime.state.OperatorStateHandle;
import org.apache.flink.runtime.state.memory.ByteStreamStateHandle;

/**
 * What retained checkpoints and kept savepoints hold, for {@code tfstream shards uploads}: the
 * bytes of every operator's list states (the shard writer's open shards, the committer's pending
 * committables) and of every operator coordinator, read with Flink's own restore code so that
 * compressed snapshots read too. An upload is held when its upload id, or an in-progress file when
 * its name, occurs in them: matching the bytes rather than decoding them may keep more than needed,
 * never less, whatever the state versions.
 *
 * <p>A job with checkpoints here may also hold what its running writer opened after its latest
 * checkpoint began. That began at most the checkpoint timeout before its {@code _metadata} was
 * written, so everything of that job initiated since is kept too.
 */
@Internal
public final class SnapshotReferences {
    private static final String METADATA = "_metadata";
    private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");
    private static final Pattern JOB_ID = Pattern.compile("[0-9a-f]{32}");

    /** Listings of a checkpoint directory before giving up on a job that subsumes too fast. */
    private static final int MAX_PASSES = 20;

    /**
     * One snapshot read.
     *
     * @param pointer its directory
     * @param kind "checkpoint" or "savepoint"
     * @param jobId the job whose checkpoint directory holds it, or null (a savepoint, or a
     *     checkpoint outside a job's directory: then it stands for every job)
     * @param checkpointId its number from the directory name, or -1
     * @param written when its {@code _metadata} was written
     * @param text its state bytes, one char per byte
     */
    record Snapshot(
            String pointer,
            String kind,
            String jobId,
            long checkpointId,
            Instant written,
            List<String> text) {
        boolean mentions(String token) {
            for (String t : text) {
                if (t.contains(token)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<Snapshot> snapshots;
    private final Map<String, Snapshot> latest = new HashMap<>();
    private final Duration checkpointTimeout;

    private SnapshotReferences(List<Snapshot> snapshots, Duration checkpointTimeout) {
        this.snapshots = snapshots;
        this.checkpointTimeout = checkpointTimeout;
        for (Snapshot s : snapshots) {
            if (s.kind().equals("checkpoint")) {
                latest.merge(
                        String.valueOf(s.jobId()),
                        s,
                        (a, b) -> a.checkpointId() >= b.checkpointId() ? a : b);
            }
        }
    }

    /**
     * Reads every completed checkpoint under {@code checkpointDirs} (each a checkpoint root with
     * job directories below, a job's directory, or one {@code chk-N}) and every savepoint of {@code
     * savepoints} (its directory or its {@code _metadata}). Anything that cannot be read fails the
     * whole: nothing may be aborted on a guess.
     */
    public static SnapshotReferences read(
            List<String> checkpointDirs, List<String> savepoints, Duration checkpointTimeout)
            throws IOException {
        List<Snapshot> found = new ArrayList<>();
        for (String dir : checkpointDirs) {
            List<Snapshot> here = checkpoints(new Path(dir));
            if (here.isEmpty()) {
                throw new IOException(
                        "--checkpoints "
                                + Quoted.cut(dir)
                                + ": no completed checkpoint (chk-N/_metadata) below it");
            }
            found.addAll(here);
        }
        for (String sp : savepoints) {
            Path p = new Path(sp);
            Path dir = p.getName().equals(METADATA) ? p.getParent() : p;
            if (!dir.getFileSystem().exists(new Path(dir, METADATA))) {
                throw new IOException(
                        "--keep-savepoint " + Quoted.cut(sp) + ": no _metadata in it");
            }
            found.add(load(dir, "savepoint", null, -1));
        }
        return new SnapshotReferences(found, checkpointTimeout);
    }

    /** The snapshots read. */
    List<Snapshot> snapshots() {
        return snapshots;
    }

    /**
     * Why {@code u} must stay: a snapshot that holds it, or the running writer of a job whose
     * latest checkpoint began before it was opened; null when nothing read holds it.
     */
    public String keepReason(LeftoverUpload u) {
        String token = token(u);
        for (Snapshot s : snapshots) {
            if (s.mentions(token)) {
                return "held by " + s.kind() + " " + s.pointer();
            }
        }
        for (String job : new String[] {u.shard().jobId(), "null"}) {
            Snapshot last = latest.get(job);
            if (last != null && !u.since().isBefore(last.written().minus(checkpointTimeout))) {
                return "opened after "
                        + last.pointer()
                        + " began: the job's running writer may hold it";
            }
        }
        return null;
    }

    /** What a snapshot names an upload by: its upload id, or an in-progress file's name. */
    private static String token(LeftoverUpload u) {
        String name = u.id() != null ? u.id() : u.uri().substring(u.uri().lastIndexOf('/') + 1);
        return new String(name.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /**
     * The completed checkpoints below {@code dir}. A live job subsumes its checkpoints while they
     * are read; one whose {@code _metadata} is gone after a failed read was subsumed by a newer
     * one, which the next listing finds.
     */
    private static List<Snapshot> checkpoints(Path dir) throws IOException {
        Map<String, Snapshot> read = new TreeMap<>();
        Set<String> subsumed = new HashSet<>();
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            boolean vanished = false;
            for (Path chk : completed(dir)) {
                String key = chk.toString();
                if (read.containsKey(key) || subsumed.contains(key)) {
                    continue;
                }
                Snapshot s = checkpointUnlessSubsumed(chk);
                if (s == null) {
                    subsumed.add(key);
                    vanished = true;
                } else {
                    read.put(key, s);
                }
            }
            if (!vanished) {
                return new ArrayList<>(read.values());
            }
        }
        throw new IOException(
                dir + ": its checkpoints were subsumed faster than they could be read; try again");
    }

    /** The {@code chk-N} directories with a {@code _metadata} at {@code dir}, below or in it. */
    private static List<Path> completed(Path dir) throws IOException {
        FileSystem fs = dir.getFileSystem();
        List<Path> out = new ArrayList<>();
        if (fs.exists(new Path(dir, METADATA))) {
            out.add(dir);
            return out;
        }
        for (FileStatus child : list(fs, dir)) {
            String name = child.getPath().getName();
            if (CHECKPOINT.matcher(name).matches()) {
                if (fs.exists(new Path(child.getPath(), METADATA))) {
                    out.add(child.getPath());
                }
            } else if (JOB_ID.matcher(name).matches() && child.isDir()) {
                for (FileStatus chk : list(fs, child.getPath())) {
                    if (CHECKPOINT.matcher(chk.getPath().getName()).matches()
                            && fs.exists(new Path(chk.getPath(), METADATA))) {
                        out.add(chk.getPath());
                    }
                }
            }
        }
        return out;
    }

    /** The checkpoint at {@code chk}, or null when it was subsumed (removed) while read. */
    private static Snapshot checkpointUnlessSubsumed(Path chk) throws IOException {
        try {
            return checkpoint(chk);
        } catch (IOException e) {
            if (!chk.getFileSystem().exists(new Path(chk, METADATA))) {
                return null;
            }
            throw e;
        }
    }

    private static FileStatus[] list(FileSystem fs, Path dir) throws IOException {
        FileStatus[] children = fs.listStatus(dir);
        return children == null ? new FileStatus[0] : children;
    }

    private static Snapshot checkpoint(Path chk) throws IOException {
        var m = CHECKPOINT.matcher(chk.getName());
        long id = m.matches() ? Long.parseLong(m.group(1)) : -1;
        Path parent = chk.getParent();
        String job =
                parent != null && JOB_ID.matcher(parent.getName()).matches()
                        ? parent.getName()
                        : null;
        return load(chk, "checkpoint", job, id);
    }

    private static Snapshot load(Path dir, String kind, String jobId, long id) throws IOException {
        Path metadata = new Path(dir, METADATA);
        FileSystem fs = dir.getFileSystem();
        Instant written = Instant.ofEpochMilli(fs.getFileStatus(metadata).getModificationTime());
        ClassLoader loader = SnapshotReferences.class.getClassLoader();
        CheckpointMetadata meta;
        try (DataInputStream in = new DataInputStream(fs.open(metadata))) {
            meta = Checkpoints.loadCheckpointMetadata(in, loader, dir.toString());
        } catch (IOException e) {
            throw new IOException("cannot read " + kind + " " + dir + ": " + causes(e), e);
        }
        List<String> text = new ArrayList<>();
        for (OperatorState op : meta.getOperatorStates()) {
            ByteStreamStateHandle coordinator = op.getCoordinatorState();
            if (coordinator != null) {
                text.add(latin1(coordinator.getData()));
            }
            List<OperatorStateHandle> handles = new ArrayList<>();
            for (OperatorSubtaskState s : op.getStates()) {
                handles.addAll(s.getManagedOperatorState());
            }
            if (!handles.isEmpty()) {
                listStates(handles, loader, text, dir + " operator " + op.getOperatorID());
            }
        }
        return new Snapshot(dir.toString(), kind, jobId, id, written, List.copyOf(text));
    }

    /** Every element of every byte-array list state in {@code handles}, one string each. */
    private static void listStates(
            List<OperatorStateHandle> handles, ClassLoader loader, List<String> text, String what)
            throws IOException {
        DefaultOperatorStateBackend backend;
        try (CloseableRegistry registry = new CloseableRegistry()) {
            backend =
                    new DefaultOperatorStateBackendBuilder(
                                    loader, new ExecutionConfig(), false, handles, registry)
                            .build();
        } catch (Exception e) {
            throw new IOException("cannot read the state of " + what + ": " + causes(e), e);
        }
        try {
            for (String name : backend.getRegisteredStateNames()) {
                ListStateDescriptor<byte[]> d =
                        new ListStateDescriptor<>(name, BytePrimitiveArraySerializer.INSTANCE);
                ListState<byte[]> state = byteStates(backend, d);
                if (state == null) {
                    continue; // not bytes: no store's resume state goes there
                }
                for (byte[] element : state.get()) {
                    text.add(latin1(element));
                }
            }
        } catch (Exception e) {
            throw new IOException("cannot read the state of " + what + ": " + causes(e), e);
        } finally {
            backend.dispose();
        }
    }

    /** The state as bytes in whichever distribution mode it was written, or null if not bytes. */
    private static ListState<byte[]> byteStates(
            DefaultOperatorStateBackend backend, ListStateDescriptor<byte[]> d) {
        try {
            return backend.getListState(d);
        } catch (IllegalStateException wrongMode) {
            try {
                return backend.getUnionListState(d);
            } catch (Exception e) {
                return null;
            }
        } catch (Exception notBytes) {
            return null;
        }
    }

    /** The messages of {@code e} and its causes: Flink's own are often only the outermost. */
    private static String causes(Throwable e) {
        StringBuilder out = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            out.append(": ").append(c.getMessage());
        }
        return Quoted.cut(out.toString(), Quoted.MAX_MESSAGE_CHARS);
    }

    private static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
