package io.tfstream.validation;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes an {@link Alert} as one JSON object with the snake_case field names of
 * docs/validation.md#alert-format, keys of {@code observed} / {@code expected} sorted so that equal
 * alerts give equal text. Non-finite numbers are written as the strings {@code "NaN"}, {@code
 * "Infinity"}, {@code "-Infinity"}.
 */
public final class AlertJson {
    private static final JsonFactory JSON = new JsonFactory();

    private AlertJson() {}

    public static String write(Alert a) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("alert_id", a.alertId());
            g.writeStringField("scope", a.scope().name());
            g.writeNumberField("window_start", a.windowStart());
            g.writeNumberField("window_end", a.windowEnd());
            g.writeNumberField("emitted_at", a.emittedAt());
            g.writeNumberField("watermark", a.watermark());
            g.writeStringField("environment", a.environment());
            g.writeStringField("schema_fingerprint", a.schemaFingerprint());
            g.writeStringField("feature_path", a.featurePath());
            g.writeArrayFieldStart("feature_path_steps");
            for (String s : a.featurePathSteps()) {
                g.writeString(s);
            }
            g.writeEndArray();
            g.writeStringField("anomaly_type", a.anomalyType());
            g.writeNumberField("anomaly_type_number", a.anomalyTypeNumber());
            g.writeStringField("severity", a.severity());
            g.writeStringField("short_description", a.shortDescription());
            g.writeStringField("description", a.description());
            g.writeNumberField("num_examples", a.numExamples());
            g.writeNumberField("num_present", a.numPresent());
            g.writeNumberField("num_missing", a.numMissing());
            g.writeNumberField("num_affected_examples", a.numAffectedExamples());
            g.writeFieldName("affected_fraction");
            number(g, a.affectedFraction());
            map(g, "observed", a.observed());
            map(g, "expected", a.expected());
            if (a.measurement() != null) {
                g.writeObjectFieldStart("measurement");
                g.writeStringField("type", a.measurement().getType().name());
                g.writeFieldName("value");
                number(g, a.measurement().getValue());
                g.writeFieldName("threshold");
                number(g, a.measurement().getThreshold());
                g.writeStringField("control", "previous_window");
                g.writeNumberField("control_window_start", a.controlWindowStart());
                g.writeEndObject();
            }
            g.writeArrayFieldStart("sample_values");
            for (SampleValue s : a.sampleValues()) {
                g.writeStartObject();
                g.writeStringField("value", s.value());
                g.writeNumberField("count", s.count());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("example_refs");
            for (ExampleRef r : a.exampleRefs()) {
                g.writeStartObject();
                g.writeStringField("topic", r.source());
                g.writeNumberField("partition", r.partition());
                g.writeNumberField("offset", r.offset());
                g.writeNumberField("event_time", r.eventTime());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (a.firstSeen() != Long.MAX_VALUE) {
                g.writeNumberField("first_seen", a.firstSeen());
                g.writeNumberField("last_seen", a.lastSeen());
            }
            g.writeNumberField("late_count", a.lateCount());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void map(JsonGenerator g, String name, Map<String, Object> m)
            throws IOException {
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, Object> e : new TreeMap<>(m).entrySet()) {
            g.writeFieldName(e.getKey());
            Object v = e.getValue();
            if (v instanceof Double d) {
                number(g, d);
            } else if (v instanceof Number x) {
                g.writeNumber(x.longValue());
            } else if (v instanceof Boolean b) {
                g.writeBoolean(b);
            } else {
                g.writeString(String.valueOf(v));
            }
        }
        g.writeEndObject();
    }

    private static void number(JsonGenerator g, double d) throws IOException {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            g.writeString(Double.toString(d));
        } else {
            g.writeNumber(d);
        }
    }
}
