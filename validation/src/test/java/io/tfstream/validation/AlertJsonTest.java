package io.tfstream.validation;

import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.validation.Fixtures.compiled;
import static io.tfstream.validation.Fixtures.example;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Alerts of a window as JSON (docs/validation.md#alert-format), deterministic ids, and TFDV number
 * formatting.
 */
class AlertJsonTest {
    @Test
    void windowAlertsAsJson() throws Exception {
        ValidationSchema s =
                compiled("feature { name: \"hour\" type: INT int_domain { min: 0 max: 23 } }");
        WindowAccumulator w =
                Windows.window(
                        s,
                        List.of(
                                example("hour", int64s(24)),
                                example("hour", int64s(3)),
                                example("hour", int64s(40))),
                        100);
        Alerts.Context c = new Alerts.Context("job-1", 60_000, 120_000, 125_000, 120_500, 2, -1);
        List<Alert> alerts =
                Alerts.of(c, w, WindowEvaluator.evaluate(w), SeverityPolicy.allErrors());
        assertEquals(1, alerts.size());
        JsonNode j = new ObjectMapper().readTree(AlertJson.write(alerts.get(0)));
        assertEquals("INT_TYPE_BIG_INT", j.get("anomaly_type").asText());
        assertEquals(28, j.get("anomaly_type_number").asInt());
        assertEquals("RECORD", j.get("scope").asText());
        assertEquals("hour", j.get("feature_path").asText());
        assertEquals("Unexpectedly large value: 40.", j.get("description").asText());
        assertEquals(2, j.get("num_affected_examples").asLong());
        assertEquals(3, j.get("num_examples").asLong());
        assertEquals(2, j.get("example_refs").size());
        assertEquals(100, j.get("example_refs").get(0).get("offset").asLong());
        assertEquals(102, j.get("example_refs").get(1).get("offset").asLong());
        assertEquals(1100, j.get("first_seen").asLong());
        assertEquals(1102, j.get("last_seen").asLong());
        assertEquals(2, j.get("late_count").asLong());
        assertEquals(32, j.get("alert_id").asText().length());
        assertEquals(
                Alerts.alertId("job-1", s.fingerprint(), 60_000, "hour", "INT_TYPE_BIG_INT"),
                j.get("alert_id").asText());
        assertNotEquals(
                Alerts.alertId("job-1", s.fingerprint(), 120_000, "hour", "INT_TYPE_BIG_INT"),
                j.get("alert_id").asText());
    }

    @Test
    void jsonEscapesControlCharactersAndQuotes() throws Exception {
        ValidationSchema s = compiled("feature { name: \"x\" type: INT }");
        WindowAccumulator w =
                Windows.window(s, List.of(example("x", int64s(1), "we\"ird\n", int64s(1))));
        List<Alert> alerts =
                Alerts.of(
                        new Alerts.Context("j", 0, 1, 2, 3, 0, -1),
                        w,
                        WindowEvaluator.evaluate(w),
                        SeverityPolicy.allErrors());
        JsonNode j = new ObjectMapper().readTree(AlertJson.write(alerts.get(0)));
        assertEquals("we\"ird\n", j.get("feature_path").asText());
        assertEquals("SCHEMA_NEW_COLUMN", j.get("anomaly_type").asText());
    }

    @Test
    void sixDigitsMatchesCPercentG() {
        assertEquals("3", TfdvFormat.sixDigits(3.0));
        assertEquals("0.5", TfdvFormat.sixDigits(0.5));
        assertEquals("1500", TfdvFormat.sixDigits(1500));
        assertEquals("1e+06", TfdvFormat.sixDigits(1e6));
        assertEquals("1.23457e+06", TfdvFormat.sixDigits(1234567));
        assertEquals("0.0001", TfdvFormat.sixDigits(1e-4));
        assertEquals("1e-05", TfdvFormat.sixDigits(1e-5));
        assertEquals("-inf", TfdvFormat.sixDigits(Double.NEGATIVE_INFINITY));
        assertEquals("0.300000", TfdvFormat.fixed6(0.3));
        assertEquals(
                "a\\nb\\\"\\001é",
                TfdvFormat.cEscape(
                        "a\nb\"\u0001é".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertTrue(FeaturePath.of("user.age").serialized().equals("'user.age'"));
        assertEquals("##SEQUENCE##.x", FeaturePath.of("##SEQUENCE##", "x").serialized());
        assertEquals("'it''s'", FeaturePath.of("it's").serialized());
    }
}
