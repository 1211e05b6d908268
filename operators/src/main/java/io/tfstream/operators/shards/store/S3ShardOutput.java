package io.tfstream.operators.shards.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An open shard of {@link S3ShardStore}: one multipart upload, created when the first part fills,
 * parts uploaded synchronously as they fill, so the heap holds at most one part. The tail below a
 * part goes into the checkpoint at {@link #persist()}, never into an object.
 *
 * <p>Part numbers ascend; they need not be contiguous. A shard that continues its upload after a
 * restore skips {@link #RESTORE_GAP} numbers: a writer of the failed attempt that is only stalled
 * (a long GC pause, a frozen VM past the heartbeat timeout) may still upload the parts it numbered
 * next, and would replace the restored writer's parts, whose completion would then fail on every
 * retry. It would have to upload that many more parts before it notices its cancellation.
 */
final class S3ShardOutput implements ShardOutput {
    private static final int INITIAL_BUFFER = 64 * 1024;

    /** Part numbers a restored shard skips before its next part. */
    static final int RESTORE_GAP = 100;

    private final S3ShardStore store;
    private final String target;
    private final String token;
    private final int partSize;
    private final List<S3ShardState.Part> parts;
    private String uploadId;
    private long bytesInParts;
    private byte[] buffer;
    private int buffered;
    private boolean done;

    /** The number of the next part. */
    private int nextNumber;

    /**
     * The shard {@code from} continues, its next part numbered {@code firstNumber} (after the
     * highest number {@code from} holds).
     */
    S3ShardOutput(S3ShardStore store, S3ShardState.Persisted from, int partSize, int firstNumber) {
        this.store = store;
        this.nextNumber = firstNumber;
        this.target = from.target();
        this.token = from.token();
        this.partSize = partSize;
        this.parts = new ArrayList<>(from.parts());
        this.uploadId = from.uploadId();
        this.bytesInParts = from.bytesInParts();
        this.buffer = Arrays.copyOf(from.tail(), Math.max(INITIAL_BUFFER, from.tail().length));
        this.buffered = from.tail().length;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        while (len > 0) {
            if (buffered == buffer.length) {
                // Grow towards one part; a full part is uploaded below and the buffer reused.
                buffer = Arrays.copyOf(buffer, (int) Math.min(partSize, 2L * buffer.length));
            }
            int n = Math.min(len, buffer.length - buffered);
            System.arraycopy(b, off, buffer, buffered, n);
            buffered += n;
            off += n;
            len -= n;
            if (buffered == partSize) {
                uploadBuffer();
            }
        }
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public long size() {
        return bytesInParts + buffered;
    }

    /**
     * Every part but the last carries at least S3's minimum (full parts, or tails uploaded at a
     * checkpoint), so bytes below {@code parts left * minimum} always fit.
     */
    @Override
    public long room() {
        long partsLeft = S3ShardStateSerializer.MAX_PARTS - nextNumber + 1L;
        return partsLeft * S3ShardStoreFactory.MIN_PART_SIZE - buffered - 1;
    }

    @Override
    public long checkpointBytes(long pending) {
        long tail = (buffered + pending) % partSize; // full parts are uploaded on the way
        return tail < S3ShardStoreFactory.MIN_PART_SIZE ? tail : 0;
    }

    @Override
    public byte[] persist() throws IOException {
        checkOpen();
        // Only a tail S3 would take as a part leaves the task; a smaller one stays in state.
        if (buffered >= S3ShardStoreFactory.MIN_PART_SIZE) {
            uploadBuffer();
        }
        if (uploadId != null) {
            store.handedOut(uploadId);
        }
        return S3ShardStateSerializer.toBytes(
                new S3ShardState.Persisted(
                        target,
                        token,
                        uploadId,
                        parts,
                        bytesInParts,
                        Arrays.copyOf(buffer, buffered)));
    }

    @Override
    public byte[] closeForCommit() throws IOException {
        checkOpen();
        // An empty shard has no upload: the commit writes it with PutObject.
        if (buffered > 0) {
            uploadBuffer();
        }
        // not handed out yet: the writer hands it over when it passes the committable on
        byte[] closed =
                S3ShardStateSerializer.toBytes(
                        new S3ShardState.Closed(target, token, uploadId, parts, bytesInParts));
        release();
        return closed;
    }

    @Override
    public void release() {
        done = true;
        buffer = null;
    }

    private void uploadBuffer() throws IOException {
        if (uploadId == null) {
            uploadId = store.createUpload(target, token);
        }
        int number = nextNumber;
        if (number > S3ShardStateSerializer.MAX_PARTS) {
            throw new IOException(
                    target
                            + ": more than "
                            + S3ShardStateSerializer.MAX_PARTS
                            + " parts; roll shards earlier or raise the part size");
        }
        byte[] bytes = buffer;
        int length = buffered;
        String etag =
                store.uploadPart(
                        target,
                        uploadId,
                        number,
                        () -> new ByteArrayInputStream(bytes, 0, length),
                        length);
        parts.add(new S3ShardState.Part(number, etag, length));
        nextNumber++;
        bytesInParts += length;
        buffered = 0;
    }

    private void checkOpen() {
        if (done) {
            throw new IllegalStateException(target + " is already closed or released");
        }
    }
}
