package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationOutput;
import io.tfstream.operators.validation.BatchValidation;
import io.tfstream.operators.validation.SplitKey;
import io.tfstream.operators.validation.StatisticsAssembler;
import io.tfstream.operators.validation.ValidationOutputSerializer;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.operators.validation.WindowAlertFunction;
import io.tfstream.operators.validation.WindowAlertOperator;
import io.tfstream.operators.validation.WindowPartial;
import io.tfstream.validation.LintFinding;
import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * TFDV validation of parsed rows (docs/validation.md) in two places: per record inside the parse
 * (actions, window statistics on the parser's columns; hand this to {@link
 * TfstreamParseBuilder#setValidation(TfstreamValidation)}) and per window after it ({@link
 * #applyTo}: the window deltas keyed by feature-path split into the window evaluation, which emits
 * the alerts):
 *
 * <pre>{@code
 * TfstreamValidation validation = TfstreamValidation.builder()
 *         .setSchemaFile(Path.of("schema.pbtxt"))
 *         .setWindow(Duration.ofMinutes(5))
 *         .build();
 * ParseResult parsed = TfstreamParse.builder()
 *         .setSchemaFile(Path.of("schema.pbtxt"))
 *         .setValidation(validation)
 *         .build()
 *         .applyTo(records);
 * validation.applyTo(parsed).alerts().sinkTo(KafkaSink.<ValidationOutput>builder()
 *         .setBootstrapServers(brokers)
 *         .setRecordSerializer(ValidationRecords.serializer("alerts"))
 *         ...
 *         .build());
 * }</pre>
 *
 * <p>The operators' uids default to {@value TfstreamValidationBuilder#DEFAULT_UID} and {@value
 * TfstreamValidationBuilder#DEFAULT_PARTIALS_TIME_UID}, as in {@code tfstream run}.
 */
@PublicEvolving
public final class TfstreamValidation {
    private final ValidationSettings settings;
    private final Duration lag;
    private final boolean anomalies;
    private final WatermarkStrategy<WindowPartial> partialsWatermarks;
    private final String uid;
    private final String partialsTimeUid;
    private final String statisticsUid;
    private final List<LintFinding> lintFindings;

    TfstreamValidation(
            ValidationSettings settings,
            Duration lag,
            boolean anomalies,
            WatermarkStrategy<WindowPartial> partialsWatermarks,
            String uid,
            String partialsTimeUid,
            String statisticsUid,
            List<LintFinding> lintFindings) {
        this.settings = settings;
        this.lag = lag;
        this.anomalies = anomalies;
        this.partialsWatermarks = partialsWatermarks;
        this.uid = uid;
        this.partialsTimeUid = partialsTimeUid;
        this.statisticsUid = statisticsUid;
        this.lintFindings = List.copyOf(lintFindings);
    }

    /** A builder: set the schema (required), then what differs from the defaults. */
    public static TfstreamValidationBuilder builder() {
        return new TfstreamValidationBuilder();
    }

    /** The checked, serializable settings the operators run with. */
    ValidationSettings settings() {
        return settings;
    }

    /** How far behind the largest feature event time a window closes. */
    public Duration lag() {
        return lag;
    }

    /** The schema's lint findings that do not stop validation (worth logging once). */
    public List<LintFinding> lintFindings() {
        return lintFindings;
    }

    /** The window evaluation's uid (state is matched by it on restore). */
    public String uid() {
        return uid;
    }

    /**
     * The window evaluation of {@code parsed}, a parse built with this validation.
     *
     * @throws IllegalStateException when the parse was built without it, or takes event time from a
     *     feature and no partials watermarks are set
     */
    public ValidationResult applyTo(ParseResult parsed) {
        if (parsed.validation() == null) {
            throw new IllegalStateException(
                    "validation: the parse was built without setValidation(validation)");
        }
        SingleOutputStreamOperator<SourceRecord> parse = parsed.accepted();
        DataStream<WindowPartial> partials = parse.getSideOutput(BatchValidation.PARTIALS);
        if (partialsWatermarks != null) {
            partials =
                    partials.assignTimestampsAndWatermarks(partialsWatermarks)
                            .name(partialsTimeUid)
                            .uid(partialsTimeUid);
        } else if (!parsed.eventTimeFromTimestamp()) {
            throw new IllegalStateException(
                    "partialsWatermarks: the parse takes event time from a feature, so the window"
                            + " deltas need watermarks of their own: setPartialsWatermarks(...)");
        }
        // Fixed here, so that the keys of the splits (chosen by key group) survive restores.
        int configured = parse.getExecutionEnvironment().getConfig().getMaxParallelism();
        int maxParallelism =
                configured > 0
                        ? configured
                        : KeyGroupRangeAssignment.computeDefaultMaxParallelism(
                                Math.max(1, parse.getParallelism()));
        SingleOutputStreamOperator<ValidationOutput> alerts =
                partials.keyBy(new SplitKey(settings.splits(), maxParallelism), Types.INT)
                        .transform(
                                uid,
                                ValidationOutputSerializer.typeInfo(),
                                new WindowAlertOperator(
                                        new WindowAlertFunction(settings, anomalies)))
                        .setMaxParallelism(maxParallelism)
                        .name(uid)
                        .uid(uid);
        SingleOutputStreamOperator<ValidationOutput> statistics = null;
        if (settings.statisticsOptions() != null) {
            statistics =
                    alerts.getSideOutput(WindowAlertFunction.STATISTICS_PARTS)
                            .keyBy(ValidationOutput::key, Types.STRING)
                            .process(new StatisticsAssembler(settings))
                            .returns(ValidationOutputSerializer.typeInfo())
                            .setMaxParallelism(maxParallelism)
                            .name(statisticsUid)
                            .uid(statisticsUid);
        }
        return new ValidationResult(alerts, anomalies, statistics);
    }
}
