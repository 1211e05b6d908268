package io.tfstream.operators.shards;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.shards.store.LostShardException;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.operators.shards.store.ShardStore;
import io.tfstream.shards.BucketClock;
import io.tfstream.shards.TfxSplits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard sink's writer: one open shard per bucket (event-time bucket of the record, see {@link
 * EventTimeBucketAssigner}), kept open across checkpoints, every byte written once through the
 * {@link ShardStore}. A shard is finished when it holds {@code shards.target-size} bytes, at the
 * first checkpoint after it is {@code shards.max-age} old or after the writer's watermark has
 * passed its bucket's end plus {@code shards.success-delay} ({@link ShardRolls}), and at the end of
 * input ({@code flush(true)}, stop with drain), and when a record of another schema arrives for its
 * bucket ({@link SourceRecord#schemaFingerprint()}, {@code schema.update}): a shard holds the
 * records of one schema, which its manifest names. Finished shards go to the committer with the
 * next checkpoint.
 *
 * <p>At each checkpoint every open shard ends a segment and is persisted ({@link
 * OpenShard#persist}); the state is one entry per open shard. A restored writer continues its open
 * shards, as copies under new names where the store can read them back ({@link
 * io.tfstream.operators.shards.store.ShardStore#resume}), and removes nothing that a failed attempt
 * left: no writer can prove that no retained checkpoint or savepoint holds it (docs/design.md,
 * "What is never aborted"). {@link #close()} releases the open shards (a stop without drain leaves
 * them in the savepoint, to be resumed) and has the store remove what no snapshot can hold: shards
 * opened since the last checkpoint and finished shards not yet passed on.
 *
 * <p>Memory: at most {@link #MAX_OPEN_SHARDS} open shards per subtask (opening one more finishes
 * the oldest: skewed or late records can open many buckets), each holding the encoder's buffers and
 * the store's (on S3 at most one part).
 *
 * <p>Shard names: {@link ShardName} with this job's id, a run drawn by this writer instance, the
 * subtask and a counter from 0: no two writer instances name a new shard alike, so a restore of any
 * checkpoint, into any job, never reuses a name another history may have committed.
 */
@SuppressWarnings("try") // close() is Flink's AutoCloseable contract
final class ShardWriter
        implements StatefulSinkWriter<SourceRecord, ShardWriterState>,
                CommittingSinkWriter<SourceRecord, ShardCommittable> {
    private static final Logger LOG = LoggerFactory.getLogger(ShardWriter.class);

    /** Open shards per subtask at most. */
    static final int MAX_OPEN_SHARDS = 64;

    private final ShardSettings settings;
    private final ShardStore store;
    private final String jobId;
    private final int subtask;
    private final LongSupplier clock;
    private final ShardWriterMetrics metrics;
    private final ShardRolls rolls;
    private final BucketClock buckets;
    private final long maxSkewMillis;
    private final LinkedHashMap<String, OpenShard> open = new LinkedHashMap<>();
    private final List<ShardCommittable> finished = new ArrayList<>();
    private final String run = ShardName.newRun();

    /** The copies' originals to remove once safe, passed on with the first committables. */
    private final List<ShardCommittable> retirements = new ArrayList<>();

    private long counter;

    /**
     * The last checkpoint whose barrier this writer passed (-1: none): new shards open after it.
     */
    private long lastBarrier;

    private long watermark = Long.MIN_VALUE;

    /**
     * A writer of subtask {@code subtask} in job {@code jobId}, restored with {@code state} (empty
     * at a fresh start; lineage entries of older versions are ignored), taken at checkpoint {@code
     * restoredCheckpoint} (-1: none), on execution attempt {@code attempt}: above 0 a failover,
     * which continues the latest completed checkpoint of this job's own history.
     */
    ShardWriter(
            ShardSettings settings,
            ShardStore store,
            String jobId,
            int subtask,
            Collection<ShardWriterState> state,
            int attempt,
            long restoredCheckpoint,
            LongSupplier clock,
            ShardWriterMetrics metrics,
            LostShards lost)
            throws IOException {
        this.settings = settings;
        this.store = store;
        this.jobId = jobId;
        this.subtask = subtask;
        this.clock = clock;
        this.metrics = metrics;
        this.rolls = ShardRolls.of(settings);
        this.buckets = new BucketClock(settings.bucketPattern(), settings.zone());
        this.maxSkewMillis =
                settings.maxBucketSkew() == null
                        ? Long.MAX_VALUE
                        : settings.maxBucketSkew().toMillis();
        List<ShardWriterState.Open> entries = new ArrayList<>();
        for (ShardWriterState s : state) {
            if (s instanceof ShardWriterState.Open o) {
                entries.add(o);
            }
        }
        // A failover's copies of this job's own shards are named after the original and the
        // checkpoint, so the copies an attempt made before it failed again are found and replaced:
        // a crash loop adds nothing. Not for shards of another job (a failover that restores the
        // savepoint the job started from: that savepoint may be restored again), nor where a
        // savepoint of this job may name them (nor reuse their names then).
        this.lastBarrier = restoredCheckpoint;
        long started = System.nanoTime();
        boolean noted = attempt > 0 && SavepointNotes.any(settings.basePath(), jobId);
        // What earlier attempts of this subtask opened after the restored checkpoint is in no
        // completed checkpoint, and with no note in no savepoint either: removed.
        int discarded =
                attempt > 0 && !noted
                        ? OpenShardJournal.discardAfter(
                                settings.basePath(), jobId, subtask, restoredCheckpoint, store)
                        : 0;
        boolean failover = attempt > 0 && !entries.isEmpty() && !noted;
        List<Boolean> reclaim = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ShardWriterState.Open o : entries) {
            boolean own = failover && ownShard(o.name());
            reclaim.add(own);
            names.add(own ? copyName(o.name(), restoredCheckpoint) : nextName());
        }
        List<OpenShard> resumed = resumeAll(entries, names, reclaim, lost);
        int copies = 0;
        for (int i = 0; i < entries.size(); i++) {
            ShardWriterState.Open o = entries.get(i);
            OpenShard shard = resumed.get(i);
            if (shard == null) {
                continue; // lost and dropped (shards.on-lost-shard: drop)
            }
            if (!shard.name.equals(o.name())) {
                copies++;
                if (reclaim.get(i)) {
                    retirements.add(
                            new ShardCommittable.Retire(
                                    o.bucket(),
                                    o.name(),
                                    o.persisted(),
                                    restoredCheckpoint,
                                    jobId));
                }
            }
            OpenShard other = open.putIfAbsent(o.bucket(), shard);
            if (other != null) {
                finish(shard); // two subtasks' shards of one bucket met after a rescale
            }
        }
        metrics.restored(System.nanoTime() - started, copies, retirements.size(), discarded);
        metrics.openShards(open::size);
    }

    /** Copies made at once at most while a restored writer continues its open shards. */
    static final int RESTORE_THREADS = 4;

    /**
     * Continues the open shards {@code entries} as {@code names} where copied, up to {@link
     * #RESTORE_THREADS} at a time: a copy reads and writes a whole shard, and dozens of open shards
     * one after another would hold the restore for minutes.
     */
    private List<OpenShard> resumeAll(
            List<ShardWriterState.Open> entries,
            List<String> names,
            List<Boolean> reclaim,
            LostShards lost)
            throws IOException {
        if (entries.isEmpty()) {
            return List.of();
        }
        java.util.concurrent.ExecutorService pool =
                java.util.concurrent.Executors.newFixedThreadPool(
                        Math.min(RESTORE_THREADS, entries.size()),
                        r -> {
                            Thread t = new Thread(r, "tfstream-shard-restore-" + subtask);
                            t.setDaemon(true);
                            return t;
                        });
        try {
            List<java.util.concurrent.Future<OpenShard>> futures = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                ShardWriterState.Open o = entries.get(i);
                String name = names.get(i);
                boolean own = reclaim.get(i);
                futures.add(
                        pool.submit(
                                () -> {
                                    if (own) {
                                        store.discardStale(
                                                settings.bucketDir(o.bucket()) + "/" + name);
                                        store.discardAfter(o.persisted());
                                    }
                                    if (leftToItsJob(o)) {
                                        lost.lost(leftToItsJobException(o), o.stats());
                                        return null;
                                    }
                                    return OpenShard.resume(store, settings, o, name, lost);
                                }));
            }
            List<OpenShard> out = new ArrayList<>();
            for (java.util.concurrent.Future<OpenShard> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while restoring open shards");
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException("restoring open shards failed", cause);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Whether shard {@code o} is another job's that this job must not continue: resumed in place it
     * would be one upload both jobs complete, and with {@code shards.adopt-uploads: false} that job
     * may still run (blue/green), so it keeps the shard and this job loses it.
     */
    private boolean leftToItsJob(ShardWriterState.Open o) throws IOException {
        return !settings.adoptUploads()
                && !ownShard(o.name())
                && store.resumesInPlace(o.persisted());
    }

    private LostShardException leftToItsJobException(ShardWriterState.Open o) {
        String other =
                ShardName.parse(o.name(), settings.prefix(), settings.suffix())
                        .map(ShardName::jobId)
                        .orElse("another job");
        return new LostShardException(
                settings.bucketDir(o.bucket()) + "/" + o.name(),
                "it is job "
                        + other
                        + "'s shard continued in place (uploaded parts), which that job may still"
                        + " complete, and shards.adopt-uploads is false (blue/green), so this job"
                        + " leaves it to that job; a job that replaces that one restores with"
                        + " shards.adopt-uploads: true",
                null);
    }

    /** Whether shard {@code name} was opened, or copied, by a writer of this job. */
    private boolean ownShard(String name) {
        return ShardName.parse(name, settings.prefix(), settings.suffix())
                .map(n -> n.jobId().equals(jobId))
                .orElse(false);
    }

    /**
     * The name of a failover's copy of shard {@code original} restored from checkpoint {@code
     * checkpoint}: the same for every attempt that restores that checkpoint, another for any other
     * checkpoint or original (another history's originals have runs of their own).
     */
    private String copyName(String original, long checkpoint) {
        byte[] digest;
        try {
            digest =
                    java.security.MessageDigest.getInstance("SHA-256")
                            .digest(
                                    (original + "@" + checkpoint)
                                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
        String derived = java.util.HexFormat.of().formatHex(digest, 0, 8);
        return new ShardName(settings.prefix(), jobId, derived, subtask, 0, settings.suffix())
                .format();
    }

    @Override
    public void write(SourceRecord element, Context context) throws IOException {
        Long ts = context.timestamp();
        long t = EventTimeBucketAssigner.bucketTime(ts, clock.getAsLong(), maxSkewMillis);
        long end = buckets.endOf(t);
        String bucket = buckets.cachedBucketOf(t);
        if (settings.splits() != null) {
            bucket = bucket + "/" + TfxSplits.directory(split(element));
        }
        OpenShard shard = open.get(bucket);
        String fingerprint = element.schemaFingerprint();
        if (shard != null
                && (!Objects.equals(shard.schemaFingerprint, fingerprint)
                        || !shard.hasRoomFor(element.value().length))) {
            // A schema change (schema.update): a shard holds the records of one schema. Or the
            // store's limit (S3's 10 000 parts) is near, whatever shards.target-size says.
            open.remove(bucket);
            finish(shard);
            shard = null;
        }
        if (shard == null) {
            // a bucket of processing time (a skewed record) is never closed by the watermark
            shard = openShard(bucket, ts != null && t == ts ? end : Long.MAX_VALUE, fingerprint);
        }
        shard.write(element, ts == null ? element.timestamp() : ts);
        metrics.written(element.value().length);
        if (rolls.full(shard.storedBytes())) {
            open.remove(bucket);
            finish(shard);
        }
    }

    /** The TFX split of {@code element}; the split guard in front let only splittable ones by. */
    private TfxSplits.Split split(SourceRecord element) throws IOException {
        try {
            return settings.splits()
                    .of(element.value(), settings.splitFeature(), settings.sequence());
        } catch (TfxSplits.SplitKeyException e) {
            throw new IOException(
                    "record "
                            + element.topic()
                            + "@"
                            + element.partition()
                            + ":"
                            + element.offset()
                            + " has no split: "
                            + e.getMessage()
                            + " (put the shards' split guard in front of the sink)",
                    e);
        }
    }

    private OpenShard openShard(String bucket, long bucketEnd, String fingerprint)
            throws IOException {
        if (open.size() >= MAX_OPEN_SHARDS) {
            Iterator<OpenShard> oldest = open.values().iterator();
            OpenShard s = oldest.next();
            oldest.remove();
            finish(s);
        }
        String name = nextName();
        // noted before the store holds a byte of it: a failover can then find it if this attempt
        // dies before a checkpoint holds it
        OpenShardJournal.opened(
                settings.basePath(),
                jobId,
                subtask,
                name,
                settings.bucketDir(bucket) + "/" + name,
                lastBarrier);
        OpenShard s =
                OpenShard.open(
                        store, settings, bucket, name, bucketEnd, clock.getAsLong(), fingerprint);
        open.put(bucket, s);
        return s;
    }

    /** A name no other writer instance uses; a name drawn and left unused leaves a gap only. */
    private String nextName() {
        return new ShardName(settings.prefix(), jobId, run, subtask, counter++, settings.suffix())
                .format();
    }

    private void finish(OpenShard s) throws IOException {
        ShardCommittable.Shard shard = s.close();
        if (shard.features() != null) {
            // staged, not carried: sketches of megabytes would pass the marker coordinator
            shard =
                    shard.withFeaturesFile(
                            OpenShardJournal.stageStatistics(
                                    settings.basePath(),
                                    jobId,
                                    subtask,
                                    shard.name(),
                                    lastBarrier,
                                    shard.features()));
        }
        finished.add(shard);
    }

    @Override
    public void writeWatermark(Watermark w) {
        watermark = Math.max(watermark, w.getTimestamp());
    }

    @Override
    public void flush(boolean endOfInput) throws IOException {
        if (endOfInput) {
            for (OpenShard s : open.values()) {
                finish(s);
            }
            open.clear();
        }
    }

    @Override
    public Collection<ShardCommittable> prepareCommit() throws IOException {
        long now = clock.getAsLong();
        Iterator<Map.Entry<String, OpenShard>> it = open.entrySet().iterator();
        while (it.hasNext()) {
            OpenShard s = it.next().getValue();
            if (rolls.dueAtCheckpoint(s.openedAt, now, s.bucketEnd, watermark)) {
                it.remove();
                finish(s);
            }
        }
        keepWithinCheckpointBudget();
        List<ShardCommittable> out = new ArrayList<>(finished);
        out.addAll(retirements);
        retirements.clear();
        for (ShardCommittable c : out) {
            if (c instanceof ShardCommittable.Shard shard) {
                // passed on towards the next snapshot: close() must leave it from now on
                store.handOver(shard.closed());
            }
        }
        finished.clear();
        return out;
    }

    /**
     * Finishes the shards with the largest unfinished parts until the rest fit {@code
     * shards.checkpoint-budget}: each checkpoint holds every open shard's tail again, so at low
     * rates a long-lived shard would cost its whole tail in every checkpoint.
     */
    private void keepWithinCheckpointBudget() throws IOException {
        long total = 0;
        for (OpenShard s : open.values()) {
            total += s.checkpointBytes();
        }
        while (total > settings.checkpointBudget()) {
            Map.Entry<String, OpenShard> largest = null;
            for (Map.Entry<String, OpenShard> e : open.entrySet()) {
                if (largest == null
                        || e.getValue().checkpointBytes() > largest.getValue().checkpointBytes()) {
                    largest = e;
                }
            }
            total -= largest.getValue().checkpointBytes();
            open.remove(largest.getKey());
            finish(largest.getValue());
            metrics.finishedByBudget.inc();
        }
        metrics.checkpointBytes(total);
    }

    @Override
    public List<ShardWriterState> snapshotState(long checkpointId) throws IOException {
        lastBarrier = checkpointId;
        List<ShardWriterState> state = new ArrayList<>(open.size());
        for (OpenShard s : open.values()) {
            long started = System.nanoTime();
            state.add(s.persist());
            metrics.persisted(System.nanoTime() - started);
        }
        return state;
    }

    /** Open shards, for tests. */
    int openShards() {
        return open.size();
    }

    /**
     * Removes what no checkpoint holds, as well as the store can. Flink also closes a writer while
     * cleaning up after a failure, and takes an exception there as fatal to the whole TaskManager;
     * what cannot be removed (S3 refusing the abort, a file system gone) was never in a checkpoint,
     * so it is logged and left to {@code tfstream shards uploads} instead of thrown.
     */
    @Override
    public void close() {
        for (OpenShard s : open.values()) {
            try {
                s.release();
            } catch (RuntimeException e) {
                leftBehind(e);
            }
        }
        open.clear();
        try {
            store.close();
        } catch (IOException | RuntimeException e) {
            leftBehind(e);
        }
    }

    private void leftBehind(Exception e) {
        LOG.warn(
                "shard writer of subtask {}: could not remove what no checkpoint holds; left for"
                        + " `tfstream shards uploads` (S3) or as an in-progress file: {}",
                subtask,
                e.toString());
    }
}
