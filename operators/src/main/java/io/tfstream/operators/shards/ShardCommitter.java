package io.tfstream.operators.shards;

import io.tfstream.api.model.ShardIndex;
import io.tfstream.operators.shards.store.LostShardException;
import io.tfstream.operators.shards.store.ShardName;
import io.tfstream.operators.shards.store.ShardStore;
import io.tfstream.shards.ShardLayout;
import io.tfstream.shards.ShardManifest;
import io.tfstream.tfrecord.TfRecordIndexWriter;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * Makes closed shards visible through the {@link ShardStore} ({@link ShardStore#commit},
 * idempotent), then writes each one's manifest ({@code <shard>.manifest.json}) from what its
 * committable carries, so a manifest appears only once its shard is visible; a commit repeated
 * after a recovery writes the same shard and manifest again. Manifests are written whole ({@link
 * SuccessMarkers#writeWhole}); with {@code shards.statistics}, the shard's statistics go before its
 * manifest, which names them. A bucket's {@link ShardCommittable.Marker}s are handled after the
 * shards committed with them: its {@code _SUCCESS} is written by {@link SuccessMarkers}.
 *
 * <p>Metrics under {@code tfstream}: {@code shardsFinished}, {@code shardRecordsFinished}, {@code
 * shardBytesFinished}, the histograms {@code shardSize} (bytes as stored) and {@code shardSegments}
 * (checkpoints a shard lived through, plus one), {@code successMarkers} (a commit repeated after a
 * recovery is counted again), {@code shardCopiesRetired} (in-progress files a failover's copy
 * superseded, removed), {@code shardsLost} and {@code shardRecordsLost} ({@link LostShards}).
 */
@SuppressWarnings("try") // close() is Flink's AutoCloseable contract
final class ShardCommitter implements Committer<ShardCommittable> {
    private static final int HISTOGRAM_WINDOW = 1000;

    /** Staged statistics of one shard at most, as a committable's inline ones. */
    private static final int MAX_FEATURE_BYTES = 1 << 30;

    private final ShardSettings settings;
    private final Duration markerWait;
    private final LostShards lost;
    private final java.util.Set<String> dropped = new java.util.HashSet<>();

    /** Per fingerprint: whether its schema copy is there (looked up once per committer). */
    private final java.util.Map<String, Boolean> copied = new java.util.HashMap<>();

    private ShardStore store;
    private SuccessMarkers successMarkers;
    final Counter markers;
    final Counter retired;
    final Counter finished;
    final Counter finishedRecords;
    final Counter finishedBytes;
    final Histogram size;
    final Histogram segments;

    ShardCommitter(ShardSettings settings, MetricGroup metrics) {
        this(settings, metrics, SuccessMarkers.DEFAULT_WAIT);
    }

    ShardCommitter(ShardSettings settings, MetricGroup metrics, Duration markerWait) {
        this.settings = settings;
        this.markerWait = markerWait;
        MetricGroup g = metrics.addGroup("tfstream");
        this.markers = g.counter("successMarkers");
        this.retired = g.counter("shardCopiesRetired");
        this.finished = g.counter("shardsFinished");
        this.finishedRecords = g.counter("shardRecordsFinished");
        this.finishedBytes = g.counter("shardBytesFinished");
        this.size = g.histogram("shardSize", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        this.segments =
                g.histogram("shardSegments", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        this.lost = new LostShards(settings.onLostShard(), metrics);
    }

    @Override
    public void commit(Collection<CommitRequest<ShardCommittable>> requests)
            throws IOException, InterruptedException {
        List<ShardCommittable.Marker> marks = new ArrayList<>();
        java.util.Map<String, Boolean> noted = new java.util.HashMap<>();
        for (CommitRequest<ShardCommittable> r : requests) {
            if (r.getCommittable() instanceof ShardCommittable.Shard s) {
                commitShard(s);
            } else if (r.getCommittable() instanceof ShardCommittable.Retire retire) {
                retire(retire, noted);
            } else {
                marks.add((ShardCommittable.Marker) r.getCommittable());
            }
        }
        for (ShardCommittable.Marker m : marks) {
            markers().write(dropped.isEmpty() ? m : m.without(dropped));
            markers.inc();
        }
    }

    /**
     * Removes the in-progress file a failover's copy superseded, unless a savepoint of the job may
     * name it ({@code noted}: what this commit has looked up so far, by job): the coordinator
     * passes it on only once no retained checkpoint does. Repeating it after a recovery finds the
     * file gone.
     */
    private void retire(ShardCommittable.Retire r, java.util.Map<String, Boolean> noted)
            throws IOException {
        Boolean any = noted.get(r.jobId()); // one listing per commit and job
        if (any == null) {
            any = SavepointNotes.any(settings.basePath(), r.jobId());
            noted.put(r.jobId(), any);
        }
        if (any) {
            return; // a savepoint may name it: tfstream shards uploads, once the savepoint is gone
        }
        store().retire(r.persisted());
        journalled(r.name());
        retired.inc();
    }

    /**
     * Removes the open-shard entry of shard {@code name}: committed, dropped, or an original a
     * failover's copy replaced and that was retired; it is no leftover then.
     */
    private void journalled(String name) throws IOException {
        java.util.Optional<ShardName> parsed =
                ShardName.parse(name, settings.prefix(), settings.suffix());
        if (parsed.isPresent()) {
            OpenShardJournal.committed(settings.basePath(), parsed.get());
        }
    }

    private void commitShard(ShardCommittable.Shard s) throws IOException {
        String uri;
        try {
            uri = store().commit(s.closed());
        } catch (LostShardException e) {
            lost.lost(e, s.stats());
            dropped.add(s.name()); // its bucket's marker must not wait for it
            journalled(s.name());
            unstage(s);
            return;
        }
        String name = new Path(uri).getName();
        journalled(s.name());
        if (settings.index() == ShardIndex.DALI) {
            SuccessMarkers.writeWhole(
                    new Path(settings.layout().indexPath(settings.basePath(), s.bucket(), name)),
                    daliIndex(new Path(uri)));
        }
        if (settings.manifests()) {
            ShardManifest manifest = withSchemaCopy(manifestOf(s, settings));
            if (settings.statistics() != null
                    && (s.features() != null || s.featuresFile() != null)) {
                // before the manifest: a listed manifest that names statistics finds them
                String file = ShardLayout.shardStatisticsName(name);
                Path stored = new Path(settings.metadataDir(s.bucket()) + "/" + file);
                java.util.Optional<byte[]> features =
                        s.features() != null
                                ? java.util.Optional.of(s.features())
                                : OpenShardJournal.readStaged(s.featuresFile(), MAX_FEATURE_BYTES);
                if (features.isPresent()) {
                    SuccessMarkers.writeWhole(stored, features.get());
                    manifest = manifest.withStatistics(file);
                } else if (stored.getFileSystem().exists(stored)) {
                    manifest = manifest.withStatistics(file); // stored by the commit repeated here
                }
                // else: the bucket's statistics read this shard back (SuccessMarkers)
            }
            SuccessMarkers.writeWhole(
                    new Path(settings.layout().manifestPath(settings.basePath(), s.bucket(), name)),
                    manifest.toJson());
        }
        unstage(s);
        finished.inc();
        finishedRecords.inc(s.stats().records());
        finishedBytes.inc(s.fileBytes());
        size.update(s.fileBytes());
        segments.update(s.segments());
    }

    /** Removes the statistics the writer staged for {@code s}, once nothing needs them. */
    private static void unstage(ShardCommittable.Shard s) throws IOException {
        if (s.featuresFile() != null) {
            OpenShardJournal.removeStaged(s.featuresFile());
        }
    }

    /**
     * The DALI index of committed uncompressed shard {@code shard}, read back once: offsets and
     * framed lengths are only known per record, and keeping them in state while a shard is open
     * would grow checkpoints with every record. Reading checks every CRC on the way.
     */
    static byte[] daliIndex(Path shard) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (InputStream in = shard.getFileSystem().open(shard);
                TfRecordReader r =
                        TfRecordReader.open(in, shard.toString(), TfRecordReadOptions.defaults());
                TfRecordIndexWriter index = new TfRecordIndexWriter(bytes)) {
            while (r.next()) {
                index.add(r.recordOffset(), r.framedLength());
            }
        }
        return bytes.toByteArray();
    }

    private ShardStore store() throws IOException {
        if (store == null) {
            store = settings.storeFactory().create();
        }
        return store;
    }

    private SuccessMarkers markers() {
        if (successMarkers == null) {
            successMarkers = new SuccessMarkers(markerWait, settings);
        }
        return successMarkers;
    }

    /**
     * {@code m} naming the copy of its schema when there is one beside the shards (written by the
     * parse, {@link SchemaCopies}). Looked up once per fingerprint: the parse writes a copy before
     * it parses a record with that schema, so a copy absent at the first shard stays absent.
     */
    private ShardManifest withSchemaCopy(ShardManifest m) throws IOException {
        String fingerprint = m.schemaFingerprint();
        if (fingerprint == null || fingerprint.isEmpty()) {
            return m;
        }
        Boolean there = copied.get(fingerprint);
        if (there == null) {
            // absent: a feature spec, or copies off; a copy of another fingerprint is not named
            there = SchemaCopies.verified(settings.basePath(), fingerprint);
            copied.put(fingerprint, there);
        }
        return there ? m.withSchema(ShardLayout.schemaPath(fingerprint)) : m;
    }

    /** The manifest of committed shard {@code s}. */
    static ShardManifest manifestOf(ShardCommittable.Shard s, ShardSettings settings) {
        return ShardManifest.of(
                        s.name(),
                        s.bucket(),
                        s.stats(),
                        s.fileBytes(),
                        settings.compression(),
                        s.crc32c(),
                        s.schemaFingerprint() != null
                                ? s.schemaFingerprint()
                                : settings.schemaFingerprint(),
                        s.segments())
                .withHistory(s.history());
    }

    @Override
    public void close() throws Exception {
        if (store != null) {
            store.close();
        }
    }
}
