package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.StatisticsSettings;
import io.tfstream.api.model.ValidationAction;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.operators.validation.ValidationSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.AnomalyInfo;

/**
 * {@link TfstreamValidationBuilder} and {@link TfstreamValidation#applyTo}: defaults, the required
 * schema, bad settings named at build, the operators and their uids in the graph.
 */
class TfstreamValidationTest {
    private static final byte[] SCHEMA =
            ("feature { name: \"age\" type: INT int_domain { min: 0 max: 120 }"
                            + " presence { min_fraction: 1.0 } }\n"
                            + "feature { name: \"ts\" type: INT }\n")
                    .getBytes(StandardCharsets.UTF_8);

    private static TfstreamValidationBuilder schema() {
        return TfstreamValidation.builder().setSchema(SCHEMA, "schema.pbtxt");
    }

    private static String failure(TfstreamValidationBuilder b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void defaultsAreThoseOfTfstreamRun() {
        TfstreamValidation v = schema().build();
        ValidationSettings s = v.settings();
        assertEquals(60_000, s.windowMillis());
        assertEquals(1, s.splits());
        assertEquals("tfstream", s.job());
        assertFalse(s.sequence());
        assertEquals(Duration.ofSeconds(5), v.lag(), "event-time.max-out-of-orderness");
        assertEquals("validation-windows", v.uid());
        assertTrue(s.actions().allPass());
        assertNotNull(s.buildSchema());
    }

    @Test
    void settingsReachTheOperators() {
        TfstreamValidation v =
                schema().setWindow(Duration.ofMinutes(5))
                        .setSplits(4)
                        .setJobName("job-a")
                        .setLag(Duration.ofSeconds(3))
                        .setActions(ValidationActions.parse(List.of("INT_TYPE_SMALL_INT=divert")))
                        .setUidPrefix("w")
                        .build();
        assertEquals(300_000, v.settings().windowMillis());
        assertEquals(4, v.settings().splits());
        assertEquals("job-a", v.settings().job());
        assertEquals(Duration.ofSeconds(3), v.lag());
        assertEquals(
                ValidationAction.DIVERT,
                v.settings()
                        .actions()
                        .actionFor(
                                AnomalyInfo.Type.INT_TYPE_SMALL_INT,
                                v.settings()
                                        .severity()
                                        .severity(AnomalyInfo.Type.INT_TYPE_SMALL_INT)));
        assertEquals("w-windows", v.uid());
        // The parse built with it validates every row, the window closing after the lag.
        TfstreamParse parse =
                TfstreamParse.builder().setSchema(SCHEMA, "schema.pbtxt").setValidation(v).build();
        assertSame(v.settings(), parse.settings().validation());
        assertEquals(3000, parse.settings().validationLagMillis());
    }

    @Test
    void theSchemaIsRequired() {
        assertTrue(failure(TfstreamValidation.builder()).startsWith("schema is required"));
    }

    @Test
    void badSettingsAreNamed() {
        BuilderErrors.assertNamed(failure(schema().setWindow(Duration.ZERO)), "window");
        BuilderErrors.assertNamed(failure(schema().setSplits(0)), "splits");
        BuilderErrors.assertNamed(failure(schema().setMinDriftExamples(-1)), "minDriftExamples");
        BuilderErrors.assertNamed(failure(schema().setActions(null)), "actions");
        BuilderErrors.assertNamed(
                failure(schema().setSeverityOverrides(List.of("NOPE"))), "severityOverrides");
        BuilderErrors.assertNamed(failure(schema().setJobName("")), "jobName");
        BuilderErrors.assertNamed(failure(schema().setLimits(null)), "limits");
        BuilderErrors.assertNamed(failure(schema().setLag(Duration.ofSeconds(-1))), "lag");
        BuilderErrors.assertNamed(
                assertThrows(IllegalArgumentException.class, () -> schema().setUidPrefix(""))
                        .getMessage(),
                "uidPrefix");
        BuilderErrors.assertNamed(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> StatisticsSettings.builder().setEpsilon(0).build())
                        .getMessage(),
                "statistics: epsilon");
        BuilderErrors.assertNamed(
                failure(TfstreamValidation.builder().setSchema(new byte[] {1, 2}, "schema.pb")),
                "schema");
        // Fatal lint (TFDV refuses an unknown environment) fails the build, naming the schema.
        String lint = failure(schema().setEnvironment("NOT_THERE"));
        assertTrue(lint.startsWith("schema schema.pbtxt cannot be validated against"), lint);
    }

    @Test
    void theWindowEvaluationRunsUnderItsUid() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TfstreamValidation v = schema().setAnomalies(true).build();
        ParseResult parsed =
                TfstreamParse.builder()
                        .setSchema(SCHEMA, "schema.pbtxt")
                        .setValidation(v)
                        .build()
                        .applyToBytes(env.fromData(new byte[0]), "in");
        ValidationResult result = v.applyTo(parsed);
        result.alerts().sinkTo(new DiscardingSink<>());
        result.anomalies().sinkTo(new DiscardingSink<>());
        Set<String> uids =
                env.getStreamGraph().getStreamNodes().stream()
                        .map(StreamNode::getTransformationUID)
                        .collect(Collectors.toSet());
        assertTrue(uids.contains("validation-windows"), uids.toString());
        assertFalse(uids.contains("validation-partials-event-time"), "record timestamps: none");
    }

    /** Statistics: off by default, on with the sketches' epsilon, under their own uid. */
    @Test
    void statisticsAreAssembledUnderTheirUid() {
        assertEquals(null, schema().build().settings().statisticsOptions());
        assertThrows(
                IllegalStateException.class,
                () -> {
                    StreamExecutionEnvironment env =
                            StreamExecutionEnvironment.getExecutionEnvironment();
                    TfstreamValidation v = schema().build();
                    v.applyTo(
                                    TfstreamParse.builder()
                                            .setSchema(SCHEMA, "schema.pbtxt")
                                            .setValidation(v)
                                            .build()
                                            .applyToBytes(env.fromData(new byte[0]), "in"))
                            .statistics();
                });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TfstreamValidation v =
                schema().setStatistics(StatisticsSettings.builder().setEpsilon(0.05).build())
                        .setUidPrefix("stats")
                        .build();
        assertEquals(0.05, v.settings().statisticsOptions().epsilon());
        assertTrue(v.settings().statisticsOptions().sketchTopValues());
        assertEquals(
                0.05, v.settings().withSchema(SCHEMA, "x").statisticsOptions().epsilon(), "kept");
        ValidationResult result =
                v.applyTo(
                        TfstreamParse.builder()
                                .setSchema(SCHEMA, "schema.pbtxt")
                                .setValidation(v)
                                .build()
                                .applyToBytes(env.fromData(new byte[0]), "in"));
        result.alerts().sinkTo(new DiscardingSink<>());
        result.statistics().sinkTo(new DiscardingSink<>());
        Set<String> uids =
                env.getStreamGraph().getStreamNodes().stream()
                        .map(StreamNode::getTransformationUID)
                        .collect(Collectors.toSet());
        assertTrue(uids.contains("stats-statistics"), uids.toString());
    }

    @Test
    void featureEventTimeNeedsWatermarksOfTheDeltas() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TfstreamValidation v = schema().build();
        TfstreamParse parse =
                TfstreamParse.builder()
                        .setSchema(SCHEMA, "schema.pbtxt")
                        .setEventTime(
                                EventTimeSettings.feature("ts", EventTimeSettings.Unit.MILLIS))
                        .setValidation(v)
                        .build();
        ParseResult parsed = parse.applyToBytes(env.fromData(new byte[0]), "in");
        String message =
                assertThrows(IllegalStateException.class, () -> v.applyTo(parsed)).getMessage();
        assertTrue(message.startsWith("partialsWatermarks"), message);

        TfstreamValidation timed =
                schema().setPartialsWatermarks(Duration.ofSeconds(1), Duration.ZERO).build();
        timed.applyTo(parsed).alerts().sinkTo(new DiscardingSink<>());
        Set<String> uids =
                env.getStreamGraph().getStreamNodes().stream()
                        .map(StreamNode::getTransformationUID)
                        .collect(Collectors.toSet());
        assertTrue(uids.contains("validation-partials-event-time"), uids.toString());
    }

    @Test
    void aParseWithoutValidationOrAnomaliesIsRefused() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        ParseResult parsed =
                TfstreamParse.builder()
                        .setSchema(SCHEMA, "schema.pbtxt")
                        .build()
                        .applyToBytes(env.fromData(new byte[0]), "in");
        TfstreamValidation v = schema().build();
        assertThrows(IllegalStateException.class, () -> v.applyTo(parsed));
        ParseResult validated =
                TfstreamParse.builder()
                        .setSchema(SCHEMA, "schema.pbtxt")
                        .setValidation(v)
                        .build()
                        .applyToBytes(env.fromData(new byte[0]), "in");
        assertThrows(IllegalStateException.class, () -> v.applyTo(validated).anomalies());
    }
}
