package io.tfstream.operators.validation;

import io.tfstream.api.model.ValidationOutput;
import io.tfstream.validation.Alert;
import io.tfstream.validation.AlertJson;
import io.tfstream.validation.Alerts;
import io.tfstream.validation.AnomaliesProtoBuilder;
import io.tfstream.validation.DriftEvaluator;
import io.tfstream.validation.Finding;
import io.tfstream.validation.SeverityPolicy;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowAccumulatorSerializer;
import io.tfstream.validation.WindowEvaluator;
import io.tfstream.validation.WindowFinding;
import io.tfstream.validation.WindowSplits;
import io.tfstream.validation.WindowStatistics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.tensorflow.metadata.v0.DriftSkewInfo;

/**
 * Keyed by feature-path split: merges the {@link WindowPartial}s of every subtask for a window into
 * the window's accumulator, kept deserialized between checkpoints and written to keyed state only
 * before each checkpoint barrier ({@link WindowAlertOperator} calls {@link #flush}: a window's
 * statistics are read and written once per checkpoint, not once per partial), and when the
 * watermark reaches the window's end (an event-time timer, allowed lateness 0) evaluates it (tier
 * W, docs/validation.md#validation-tiers), compares it with the previous non-empty window of the
 * split (tier C, drift) and emits one alert per feature path × anomaly type as JSON keyed by the
 * deterministic alert id; optionally the window's TFDV {@code Anomalies} on {@link #ANOMALIES}.
 * Each split reports only the findings of its paths; split 0 also the dataset-level ones and, with
 * its first window, the schema's lint findings (scope {@code SCHEMA}, once), and it keeps a timer
 * at every window end so that a window without records still fires (an empty window reports 0
 * examples). A partial of a window already fired (after a restore) is counted as late in the next
 * window.
 *
 * <p>Windows are kept per schema fingerprint ({@code schema.update: poll}, docs/schema-changes.md):
 * each (window, fingerprint) is merged, evaluated with the validation schema of that fingerprint
 * and reported on its own, so a window spanning a change reports once per fingerprint with its own
 * counts; drift compares only windows of the same fingerprint. The schema of a fingerprint other
 * than the configured one arrives with its first partial and is kept in keyed state.
 */
@Internal
public final class WindowAlertFunction
        extends KeyedProcessFunction<Integer, WindowPartial, ValidationOutput> {
    private static final long serialVersionUID = 1L;

    /** Each fired window's {@code Anomalies} proto, keyed {@code <window start>/<split>}. */
    public static final OutputTag<ValidationOutput> ANOMALIES =
            new OutputTag<>("validation-anomalies", ValidationOutputSerializer.typeInfo());

    /**
     * With statistics ({@link ValidationSettings#statisticsOptions()}): each fired window's TFDV
     * statistics of the features this split keeps, a {@code DatasetFeatureStatistics} keyed {@code
     * <start>/<end>/<fingerprint>}, which {@link StatisticsAssembler} puts together.
     */
    public static final OutputTag<ValidationOutput> STATISTICS_PARTS =
            new OutputTag<>("validation-statistics-parts", ValidationOutputSerializer.typeInfo());

    /**
     * Largest {@code Anomalies} message with its baseline schema: above it the baseline is left out
     * (a Kafka producer's default {@code max.request.size} is 1 MiB).
     */
    public static final int MAX_ANOMALIES_BYTES = 900 * 1024;

    private final ValidationSettings settings;
    private final boolean anomalies;

    private transient ValidationSchema schema;
    private transient WindowAccumulatorSerializer serializer;
    private transient SeverityPolicy severity;
    private transient Map<String, ValidationSchema> schemas;
    // Layout before live schemas (read on restore, the configured schema's): start -> partial.
    private transient MapState<Long, WindowPartial> open;
    private transient ValueState<WindowPartial> previous;
    private transient ValueState<Boolean> lintReported;
    // Per fingerprint: open windows keyed <start>/<fingerprint>, the previous non-empty window,
    // lint reported, and the TFMD schema of fingerprints other than the configured one.
    private transient MapState<String, WindowPartial> openBySchema;
    private transient MapState<String, WindowPartial> previousBySchema;
    private transient MapState<String, Boolean> lintBySchema;
    private transient MapState<String, byte[]> schemaBytes;
    private transient ValueState<String> latestSchema;
    private transient ValueState<Long> firedUpTo;
    private transient ValueState<Long> lateCarry;
    private transient ValueState<Integer> splitOfKey;
    private transient AlertMetrics alertMetrics;
    // Partials not yet merged into openBySchema, and how many: written by earlier builds, which
    // folded every FOLD_EVERY partials; read on restore, never written now.
    private transient ListState<WindowPartial> pending;
    private transient ValueState<Integer> pendingCount;

    /** How many partials earlier builds kept in {@code pending-partials} before a fold. */
    static final int FOLD_EVERY = 8;

    /**
     * The windows merged since they were read from state, deserialized: key → {@code
     * <start>/<fingerprint>} → window. Newer than {@code openBySchema} where {@code dirty}; lost on
     * failure, which restores the state of the checkpoint they were flushed to before.
     */
    private transient Map<Integer, Map<String, LiveWindow>> live;

    /** An open window's accumulator between checkpoints. */
    private static final class LiveWindow {
        final String fingerprint;
        final int split;
        final long start;
        final long end;
        long late;
        WindowAccumulator window;
        boolean dirty;

        LiveWindow(String fingerprint, int split, long start, long end) {
            this.fingerprint = fingerprint;
            this.split = split;
            this.start = start;
            this.end = end;
        }
    }

    /**
     * @param anomalies whether to emit the {@code Anomalies} proto of each window on {@link
     *     #ANOMALIES}
     */
    public WindowAlertFunction(ValidationSettings settings, boolean anomalies) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.anomalies = anomalies;
    }

    @Override
    public void open(OpenContext openContext) {
        schema = settings.buildSchema();
        serializer = new WindowAccumulatorSerializer(schema);
        severity = settings.severity();
        schemas = new HashMap<>();
        schemas.put(schema.fingerprint(), schema);
        alertMetrics = new AlertMetrics(getRuntimeContext().getMetricGroup());
        var partials = WindowPartialSerializer.typeInfo();
        var ctx = getRuntimeContext();
        open = ctx.getMapState(new MapStateDescriptor<>("open-windows", Types.LONG, partials));
        previous = ctx.getState(new ValueStateDescriptor<>("previous-window", partials));
        lintReported = ctx.getState(new ValueStateDescriptor<>("lint-reported", Types.BOOLEAN));
        openBySchema =
                ctx.getMapState(
                        new MapStateDescriptor<>("open-windows-by-schema", Types.STRING, partials));
        previousBySchema =
                ctx.getMapState(
                        new MapStateDescriptor<>(
                                "previous-window-by-schema", Types.STRING, partials));
        lintBySchema =
                ctx.getMapState(
                        new MapStateDescriptor<>(
                                "lint-reported-by-schema", Types.STRING, Types.BOOLEAN));
        schemaBytes =
                ctx.getMapState(
                        new MapStateDescriptor<>(
                                "schemas",
                                Types.STRING,
                                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        latestSchema = ctx.getState(new ValueStateDescriptor<>("latest-schema", Types.STRING));
        firedUpTo = ctx.getState(new ValueStateDescriptor<>("fired-up-to", Types.LONG));
        lateCarry = ctx.getState(new ValueStateDescriptor<>("late-carry", Types.LONG));
        splitOfKey = ctx.getState(new ValueStateDescriptor<>("split", Types.INT));
        pending = ctx.getListState(new ListStateDescriptor<>("pending-partials", partials));
        pendingCount = ctx.getState(new ValueStateDescriptor<>("pending-count", Types.INT));
        live = new HashMap<>();
    }

    /** The fingerprint of {@code p}: an empty one (layout 1) is the configured schema's. */
    private String fingerprintOf(WindowPartial p) {
        return p.fingerprint().isEmpty() ? schema.fingerprint() : p.fingerprint();
    }

    /** The validation schema of {@code fingerprint}, built from the bytes kept in state. */
    private ValidationSchema schemaOf(String fingerprint) throws Exception {
        ValidationSchema s = schemas.get(fingerprint);
        if (s == null) {
            byte[] bytes = schemaBytes.get(fingerprint);
            if (bytes == null) {
                throw new IllegalStateException(
                        "validation window: no schema for fingerprint "
                                + fingerprint
                                + " (its first partial did not carry it)");
            }
            s = settings.withSchema(bytes, "schema-" + fingerprint).buildSchema();
            schemas.put(fingerprint, s);
        }
        return s;
    }

    private WindowAccumulator read(String fingerprint, WindowPartial p) throws Exception {
        ValidationSchema s = schemaOf(fingerprint);
        return new WindowAccumulatorSerializer(s).deserialize(p.version(), p.accumulator());
    }

    private WindowPartial write(
            String fingerprint, int split, long start, long end, long late, WindowAccumulator a)
            throws Exception {
        WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(schemaOf(fingerprint));
        return new WindowPartial(
                split,
                start,
                end,
                late,
                ser.getVersion(),
                ser.serialize(a),
                fingerprint,
                new byte[0]);
    }

    @Override
    public void processElement(WindowPartial p, Context ctx, Collector<ValidationOutput> out)
            throws Exception {
        String fp = fingerprintOf(p);
        if (p.schema().length > 0 && !schemas.containsKey(fp) && !schemaBytes.contains(fp)) {
            schemaBytes.put(fp, p.schema());
        }
        Long fired = firedUpTo.value();
        if (fired != null && p.windowEnd() <= fired) {
            long n = read(fp, p).numExamples();
            long carry = lateCarry.value() == null ? 0 : lateCarry.value();
            lateCarry.update(carry + n + p.lateCount());
            return;
        }
        splitOfKey.update(p.split());
        latestSchema.update(fp);
        foldRestored(ctx.getCurrentKey());
        String key = p.windowStart() + "/" + fp;
        LiveWindow w = liveOf(ctx.getCurrentKey(), key);
        if (w == null) {
            w = new LiveWindow(fp, p.split(), p.windowStart(), p.windowEnd());
            live.computeIfAbsent(ctx.getCurrentKey(), k -> new HashMap<>()).put(key, w);
        }
        merge(w, p);
        ctx.timerService().registerEventTimeTimer(p.windowEnd() - 1);
    }

    /**
     * The current key's window {@code <start>/<fingerprint>}: the live one, else the one kept in
     * state (made live), else null.
     */
    private LiveWindow liveOf(Integer key, String window) throws Exception {
        Map<String, LiveWindow> windows = live.get(key);
        LiveWindow w = windows == null ? null : windows.get(window);
        if (w == null) {
            WindowPartial kept = openBySchema.get(window);
            if (kept != null) {
                String fp = fingerprintOf(kept);
                w = new LiveWindow(fp, kept.split(), kept.windowStart(), kept.windowEnd());
                w.window = read(fp, kept);
                w.late = kept.lateCount();
                live.computeIfAbsent(key, k -> new HashMap<>()).put(window, w);
            }
        }
        return w;
    }

    private void merge(LiveWindow w, WindowPartial p) throws Exception {
        WindowAccumulator next = read(w.fingerprint, p);
        if (w.window == null) {
            w.window = next;
        } else {
            w.window.merge(next);
        }
        w.late += p.lateCount();
        w.dirty = true;
    }

    /** Partials an earlier build left in {@code pending-partials}, merged into their windows. */
    private void foldRestored(Integer key) throws Exception {
        if (pendingCount.value() == null) {
            return;
        }
        Iterable<WindowPartial> all = pending.get();
        if (all != null) {
            for (WindowPartial p : all) {
                String fp = fingerprintOf(p);
                String window = p.windowStart() + "/" + fp;
                LiveWindow w = liveOf(key, window);
                if (w == null) {
                    w = new LiveWindow(fp, p.split(), p.windowStart(), p.windowEnd());
                    live.computeIfAbsent(key, k -> new HashMap<>()).put(window, w);
                }
                merge(w, p);
            }
        }
        pending.clear();
        pendingCount.clear();
    }

    /**
     * Writes every window merged since the last call to keyed state: called by {@link
     * WindowAlertOperator} before each checkpoint barrier, with {@code setKey} making a key
     * current.
     */
    void flush(java.util.function.Consumer<Integer> setKey) throws Exception {
        for (Map.Entry<Integer, Map<String, LiveWindow>> k : live.entrySet()) {
            boolean keySet = false;
            for (Map.Entry<String, LiveWindow> e : k.getValue().entrySet()) {
                LiveWindow w = e.getValue();
                if (!w.dirty) {
                    continue;
                }
                if (!keySet) {
                    setKey.accept(k.getKey());
                    keySet = true;
                }
                openBySchema.put(
                        e.getKey(),
                        write(w.fingerprint, w.split, w.start, w.end, w.late, w.window));
                w.dirty = false;
            }
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ValidationOutput> out)
            throws Exception {
        long end = timestamp + 1;
        long start = end - settings.windowMillis();
        Integer splitOrNull = splitOfKey.value();
        if (splitOrNull == null) {
            throw new IllegalStateException(
                    "validation window timer for key " + ctx.getCurrentKey() + " without a split");
        }
        int split = splitOrNull;
        Integer key = ctx.getCurrentKey();
        foldRestored(key);
        // The window's statistics per fingerprint (a window spanning a schema change has two).
        TreeMap<String, WindowAccumulator> windows = new TreeMap<>();
        TreeMap<String, Long> lates = new TreeMap<>();
        String prefix = start + "/";
        List<String> done = new ArrayList<>();
        for (Map.Entry<String, WindowPartial> e : openBySchema.entries()) {
            if (e.getKey().startsWith(prefix)) {
                done.add(e.getKey());
            }
        }
        for (String k : live.getOrDefault(key, Map.of()).keySet()) {
            if (k.startsWith(prefix) && !done.contains(k)) {
                done.add(k);
            }
        }
        for (String k : done) {
            LiveWindow w = liveOf(key, k);
            windows.put(w.fingerprint, w.window);
            lates.put(w.fingerprint, w.late);
            openBySchema.remove(k);
            live.get(key).remove(k);
        }
        if (live.containsKey(key) && live.get(key).isEmpty()) {
            live.remove(key);
        }
        WindowPartial legacy = open.get(start);
        if (legacy != null) {
            open.remove(start);
            String fp = schema.fingerprint();
            WindowAccumulator a = serializer.deserialize(legacy.version(), legacy.accumulator());
            WindowAccumulator had = windows.get(fp);
            if (had != null) {
                a.merge(had);
            }
            windows.put(fp, a);
            lates.merge(fp, legacy.lateCount(), Long::sum);
        }
        // Late records of fired windows count against the schema in force (the latest seen).
        String current = latestSchema.value() == null ? schema.fingerprint() : latestSchema.value();
        if (windows.isEmpty()) {
            windows.put(current, new WindowAccumulator(schemaOf(current)));
        }
        String carryTo = windows.containsKey(current) ? current : windows.lastKey();
        lates.merge(carryTo, orZero(lateCarry.value()), Long::sum);
        lateCarry.clear();
        for (Map.Entry<String, WindowAccumulator> e : windows.entrySet()) {
            report(
                    e.getKey(),
                    e.getValue(),
                    orZero(lates.get(e.getKey())),
                    start,
                    end,
                    split,
                    ctx,
                    out);
        }
        firedUpTo.update(end);
        // Split 0 fires at every window end, so that windows without records report too; never
        // past the final watermark of a bounded input.
        if (split == 0 && ctx.timerService().currentWatermark() != Long.MAX_VALUE) {
            ctx.timerService().registerEventTimeTimer(end + settings.windowMillis() - 1);
        }
    }

    /**
     * Evaluates the window's records of schema {@code fp}: tier W, drift against the previous
     * non-empty window of the same schema only (none across a change), its alerts and Anomalies.
     */
    private void report(
            String fp,
            WindowAccumulator window,
            long lateCount,
            long start,
            long end,
            int split,
            OnTimerContext ctx,
            Collector<ValidationOutput> out)
            throws Exception {
        int splits = settings.splits();
        ValidationSchema s = schemaOf(fp);
        boolean configured = fp.equals(schema.fingerprint());
        List<WindowFinding> findings = new ArrayList<>();
        for (WindowFinding f : WindowEvaluator.evaluate(window)) {
            if (WindowSplits.owns(f.finding(), split, splits)) {
                findings.add(f);
            }
        }
        WindowPartial prev = previousBySchema.get(fp);
        if (prev == null && configured) {
            prev = previous.value();
        }
        List<DriftSkewInfo> drift = new ArrayList<>();
        if (prev != null && window.numExamples() > 0) {
            DriftEvaluator.Result d = DriftEvaluator.compare(window, read(fp, prev));
            for (WindowFinding f : d.findings()) {
                if (WindowSplits.owns(f.finding(), split, splits)) {
                    findings.add(f);
                }
            }
            for (DriftSkewInfo i : d.driftSkewInfo()) {
                if (split
                        == WindowSplits.splitOf(
                                io.tfstream.validation.FeaturePath.of(
                                        i.getPath().getStepList().toArray(new String[0])),
                                splits)) {
                    drift.add(i);
                }
            }
        }
        Alerts.Context context =
                new Alerts.Context(
                        settings.job(),
                        start,
                        end,
                        ctx.timerService().currentProcessingTime(),
                        ctx.timerService().currentWatermark(),
                        lateCount,
                        prev == null ? -1 : prev.windowStart());
        List<Alert> alerts = new ArrayList<>();
        boolean linted = configured ? lintReported.value() != null : lintBySchema.contains(fp);
        if (split == 0 && !linted) {
            alerts.addAll(
                    Alerts.lint(
                            s,
                            settings.job(),
                            severity,
                            start,
                            end,
                            context.emittedAt(),
                            context.watermark()));
            if (configured) {
                lintReported.update(true);
            } else {
                lintBySchema.put(fp, true);
            }
        }
        alerts.addAll(Alerts.of(context, window, findings, severity));
        for (Alert a : alerts) {
            alertMetrics.count(a);
            out.collect(
                    new ValidationOutput(
                            a.alertId(), AlertJson.write(a).getBytes(StandardCharsets.UTF_8)));
        }
        if (anomalies && (split == 0 || window.numExamples() > 0)) {
            List<Finding> plain = new ArrayList<>(findings.size());
            findings.forEach(f -> plain.add(f.finding()));
            // A schema taken up while running has its own key: a window may report under two.
            String key = start + "/" + split + (configured ? "" : "/" + fp);
            ctx.output(
                    ANOMALIES,
                    new ValidationOutput(
                            key,
                            AnomaliesProtoBuilder.fit(
                                            AnomaliesProtoBuilder.build(
                                                    s,
                                                    plain,
                                                    drift,
                                                    severity,
                                                    window.numExamples() == 0),
                                            MAX_ANOMALIES_BYTES)
                                    .toByteArray()));
        }
        if (WindowStatistics.kept(window)) {
            // one part per data split (one without), the dataset named after it
            for (var part : WindowStatistics.parts(window, split, splits)) {
                ctx.output(
                        STATISTICS_PARTS,
                        new ValidationOutput(
                                StatisticsAssembler.partKey(start, end, fp), part.toByteArray()));
            }
        }
        if (window.numExamples() > 0) {
            previousBySchema.put(fp, write(fp, split, start, end, 0, window));
            if (configured) {
                previous.clear();
            }
        }
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }
}
