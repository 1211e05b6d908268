package io.tfstream.operators.validation;

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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.tensorflow.metadata.v0.DriftSkewInfo;

/**
 * Keyed by feature-path split: merges the {@link WindowPartial}s of every subtask for a window, and
 * when the watermark reaches the window's end (an event-time timer, allowed lateness 0) evaluates
 * it (tier W, docs/validation.md#validation-tiers), compares it with the previous non-empty window
 * of the split (tier C, drift) and emits one alert per feature path × anomaly type as JSON keyed by
 * the deterministic alert id; optionally the window's TFDV {@code Anomalies} on {@link #ANOMALIES}.
 * Each split reports only the findings of its paths; split 0 also the dataset-level ones and, with
 * its first window, the schema's lint findings (scope {@code SCHEMA}, once), and it keeps a timer
 * at every window end so that a window without records still fires (an empty window reports 0
 * examples). A partial of a window already fired (after a restore) is counted as late in the next
 * window.
 */
public final class WindowAlertFunction
        extends KeyedProcessFunction<Integer, WindowPartial, ValidationOutput> {
    private static final long serialVersionUID = 1L;

    /** Each fired window's {@code Anomalies} proto, keyed {@code <window start>/<split>}. */
    public static final OutputTag<ValidationOutput> ANOMALIES =
            new OutputTag<>("validation-anomalies", ValidationOutputSerializer.typeInfo());

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
    private transient MapState<Long, WindowPartial> open;
    private transient ValueState<WindowPartial> previous;
    private transient ValueState<Long> firedUpTo;
    private transient ValueState<Long> lateCarry;
    private transient ValueState<Boolean> lintReported;
    private transient ValueState<Integer> splitOfKey;
    private transient AlertMetrics alertMetrics;

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
        alertMetrics = new AlertMetrics(getRuntimeContext().getMetricGroup());
        var partials = WindowPartialSerializer.typeInfo();
        open =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>("open-windows", Types.LONG, partials));
        previous =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>("previous-window", partials));
        firedUpTo =
                getRuntimeContext().getState(new ValueStateDescriptor<>("fired-up-to", Types.LONG));
        lateCarry =
                getRuntimeContext().getState(new ValueStateDescriptor<>("late-carry", Types.LONG));
        lintReported =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>("lint-reported", Types.BOOLEAN));
        splitOfKey = getRuntimeContext().getState(new ValueStateDescriptor<>("split", Types.INT));
    }

    @Override
    public void processElement(WindowPartial p, Context ctx, Collector<ValidationOutput> out)
            throws Exception {
        Long fired = firedUpTo.value();
        if (fired != null && p.windowEnd() <= fired) {
            long n = serializer.deserialize(p.version(), p.accumulator()).numExamples();
            long carry = lateCarry.value() == null ? 0 : lateCarry.value();
            lateCarry.update(carry + n + p.lateCount());
            return;
        }
        splitOfKey.update(p.split());
        WindowPartial merged = open.get(p.windowStart());
        if (merged == null) {
            merged = p;
        } else {
            WindowAccumulator a = serializer.deserialize(merged.version(), merged.accumulator());
            a.merge(serializer.deserialize(p.version(), p.accumulator()));
            merged =
                    new WindowPartial(
                            p.split(),
                            p.windowStart(),
                            p.windowEnd(),
                            merged.lateCount() + p.lateCount(),
                            serializer.getVersion(),
                            serializer.serialize(a));
        }
        open.put(p.windowStart(), merged);
        ctx.timerService().registerEventTimeTimer(p.windowEnd() - 1);
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
        int splits = settings.splits();
        WindowPartial p = open.get(start);
        open.remove(start);
        WindowAccumulator window =
                p == null
                        ? new WindowAccumulator(schema)
                        : serializer.deserialize(p.version(), p.accumulator());
        long lateCount = (p == null ? 0 : p.lateCount()) + orZero(lateCarry.value());
        lateCarry.clear();
        List<WindowFinding> findings = new ArrayList<>();
        for (WindowFinding f : WindowEvaluator.evaluate(window)) {
            if (WindowSplits.owns(f.finding(), split, splits)) {
                findings.add(f);
            }
        }
        WindowPartial prev = previous.value();
        List<DriftSkewInfo> drift = new ArrayList<>();
        if (prev != null && window.numExamples() > 0) {
            DriftEvaluator.Result d =
                    DriftEvaluator.compare(
                            window, serializer.deserialize(prev.version(), prev.accumulator()));
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
        if (split == 0 && lintReported.value() == null) {
            alerts.addAll(
                    Alerts.lint(
                            schema,
                            settings.job(),
                            severity,
                            start,
                            end,
                            context.emittedAt(),
                            context.watermark()));
            lintReported.update(true);
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
            ctx.output(
                    ANOMALIES,
                    new ValidationOutput(
                            start + "/" + split,
                            AnomaliesProtoBuilder.fit(
                                            AnomaliesProtoBuilder.build(
                                                    schema,
                                                    plain,
                                                    drift,
                                                    severity,
                                                    window.numExamples() == 0),
                                            MAX_ANOMALIES_BYTES)
                                    .toByteArray()));
        }
        if (window.numExamples() > 0) {
            previous.update(
                    new WindowPartial(
                            split,
                            start,
                            end,
                            0,
                            serializer.getVersion(),
                            serializer.serialize(window)));
        }
        firedUpTo.update(end);
        // Split 0 fires at every window end, so that windows without records report too; never
        // past the final watermark of a bounded input.
        if (split == 0 && ctx.timerService().currentWatermark() != Long.MAX_VALUE) {
            ctx.timerService().registerEventTimeTimer(end + settings.windowMillis() - 1);
        }
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }
}
