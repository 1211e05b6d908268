package io.tfstream.validation.report;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.validation.StatisticsDrift;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Schema;

/**
 * The page's content read back from its HTML: every feature in its table with the figures of its
 * statistics proto, text escaped, anomalies and schema notes where they belong, drift as {@link
 * StatisticsDrift} computes it, the same bytes for the same inputs and nothing that loads from
 * elsewhere. (What a browser makes of it: the CLI's browser test.)
 */
class StatsReportTest {
    @TempDir Path dir;

    /** Examples of an int, a float list, a string and a feature named with HTML's characters. */
    static DatasetFeatureStatistics stats(long seed, int n, double shift) {
        ExampleStatistics s = new ExampleStatistics(StatsOptions.DEFAULTS);
        Random r = new Random(seed);
        String[] colors = {"red", "green", "blue", "<i>violet</i>"};
        for (int i = 0; i < n; i++) {
            Features.Builder f = Features.newBuilder();
            f.putFeature("age", int64s(20 + r.nextInt(50)));
            if (r.nextInt(10) > 0) {
                f.putFeature(
                        "price",
                        floats((float) (r.nextGaussian() + shift), (float) r.nextDouble()));
            }
            f.putFeature(
                    "color",
                    strings(colors[Math.min(3, (int) Math.abs(r.nextGaussian() + shift))]));
            f.putFeature("a<b>&\"c'", int64s(0));
            s.add(Example.newBuilder().setFeatures(f).build());
        }
        return s.build("");
    }

    private static String body(String page, String name) {
        Matcher m =
                Pattern.compile(
                                "<tbody class=\"feature[^\"]*\" data-name=\""
                                        + Pattern.quote(Html.text(name))
                                        + "\".*?</tbody>",
                                Pattern.DOTALL)
                        .matcher(page);
        assertTrue(m.find(), "no row of " + name);
        return m.group();
    }

    /** data-field → data-value of the cells in the row of side {@code side}. */
    private static Map<String, String> figures(String body, int side) {
        Matcher row =
                Pattern.compile("<tr class=\"s" + side + "\">.*?</tr>", Pattern.DOTALL)
                        .matcher(body);
        assertTrue(row.find(), body);
        Map<String, String> out = new LinkedHashMap<>();
        Matcher cell =
                Pattern.compile("data-field=\"([a-z_]+)\"(?: data-value=\"([^\"]*)\")?")
                        .matcher(row.group());
        while (cell.find()) {
            out.put(cell.group(1), cell.group(2));
        }
        return out;
    }

    @Test
    void everyFeatureIsInItsTableWithTheFiguresOfItsStatistics() {
        DatasetFeatureStatistics s = stats(1, 500, 0);
        String page = StatsReport.of("train.pb", s).build().html();
        assertTrue(page.contains("data-value=\"500\">500 examples"));
        String numeric =
                page.substring(
                        page.indexOf("id=\"numeric-table\""), page.indexOf("id=\"categorical\""));
        String categorical = page.substring(page.indexOf("id=\"categorical-table\""));
        for (FeatureNameStatistics f : s.getFeaturesList()) {
            boolean isNumeric = f.hasNumStats();
            assertTrue(
                    (isNumeric ? numeric : categorical)
                            .contains("data-name=\"" + Html.text(name(f)) + "\""),
                    name(f));
            Map<String, String> got = figures(body(page, name(f)), 0);
            if (isNumeric) {
                var n = f.getNumStats();
                var c = n.getCommonStats();
                assertEquals(Double.toString(c.getNumNonMissing()), got.get("count"));
                assertEquals(Double.toString(n.getMean()), got.get("mean"));
                assertEquals(Double.toString(n.getStdDev()), got.get("std_dev"));
                assertEquals(Double.toString(n.getMin()), got.get("min"));
                assertEquals(Double.toString(n.getMedian()), got.get("median"));
                assertEquals(Double.toString(n.getMax()), got.get("max"));
                assertEquals(
                        Double.toString((double) n.getNumZeros() / c.getTotNumValues()),
                        got.get("zeros"));
                assertEquals(Double.toString((double) c.getAvgNumValues()), got.get("values"));
            } else {
                var t = f.getStringStats();
                assertEquals(Double.toString(t.getUnique()), got.get("unique"));
                assertEquals(Html.text(t.getTopValues(0).getValue()), got.get("top"));
            }
        }
        // price is missing from about a tenth of the examples
        var price =
                s.getFeaturesList().stream()
                        .filter(f -> name(f).equals("price"))
                        .findFirst()
                        .orElseThrow();
        var pc = price.getNumStats().getCommonStats();
        assertEquals(
                Double.toString(
                        (double) pc.getNumMissing() / (pc.getNumMissing() + pc.getNumNonMissing())),
                figures(body(page, "price"), 0).get("missing"));
        // both histograms drawn for a numeric feature, the top values for a categorical one
        String priceRow = body(page, "price");
        assertTrue(priceRow.contains("<svg class=\"chart standard\""));
        assertTrue(priceRow.contains("<svg class=\"chart quantiles\""));
        assertTrue(body(page, "color").contains("<svg class=\"chart values\""));
        assertTrue(body(page, "color").contains("<rect class=\"bar s0\""));
    }

    @Test
    void textIsEscapedAndNothingLoadsFromElsewhere() {
        String page = StatsReport.of("<x>.pb", stats(2, 200, 0)).title("a & b").build().html();
        assertFalse(page.contains("<i>violet"), "a value's markup is text");
        assertFalse(page.contains("a<b>"), "a name's markup is text");
        assertTrue(page.contains("a&lt;b&gt;&amp;&quot;c&#39;"));
        assertTrue(page.contains("<title>a &amp; b</title>"));
        assertTrue(page.contains("&lt;x&gt;.pb"));
        assertTrue(page.contains("default-src 'none'"), "the policy allows no request");
        for (String reference : List.of("src=", "href=", "url(", "@import", "://")) {
            assertFalse(page.contains(reference), reference);
        }
    }

    @Test
    void theSameInputsGiveTheSameBytes() {
        DatasetFeatureStatistics a = stats(3, 300, 0);
        DatasetFeatureStatistics b = stats(4, 300, 1);
        assertEquals(
                StatsReport.of("a", a).compare("b", b).build().html(),
                StatsReport.of("a", a).compare("b", b).build().html());
    }

    @Test
    void comparedFeaturesCarryTheirDriftAndAreSortedByIt() {
        DatasetFeatureStatistics a = stats(5, 600, 0);
        DatasetFeatureStatistics b = stats(6, 600, 1.5);
        String page = StatsReport.of("monday", a).compare("tuesday", b).build().html();
        String single = StatsReport.of("tuesday", b).build().html();
        assertTrue(page.contains("<option value=\"drift\" selected>"));
        assertTrue(page.contains("data-compare=\"true\""));
        for (FeatureNameStatistics f : a.getFeaturesList()) {
            FeatureNameStatistics g =
                    b.getFeaturesList().stream()
                            .filter(x -> name(x).equals(name(f)))
                            .findFirst()
                            .orElseThrow();
            double drift = StatisticsDrift.of(f, g).orElseThrow().value();
            String row = body(page, name(f));
            assertTrue(row.contains("data-drift=\"" + drift + "\""), name(f));
            assertTrue(
                    row.contains(
                            "<td class=\"drift\" rowspan=\"2\" data-value=\"" + drift + "\">"));
            // the second dataset's figures are those of its own page
            assertEquals(figures(body(single, name(f)), 0), figures(row, 1));
        }
        // the shifted prices drifted, the constant feature did not
        assertTrue(Double.parseDouble(attr(body(page, "price"), "data-drift")) > 0.1);
        assertEquals(0.0, Double.parseDouble(attr(body(page, "a<b>&\"c'"), "data-drift")));
    }

    @Test
    void aFeatureOfOneDatasetOnlyShowsWhereItIsAbsent() {
        DatasetFeatureStatistics a = stats(7, 100, 0);
        DatasetFeatureStatistics b =
                a.toBuilder()
                        .clearFeatures()
                        .addAllFeatures(
                                a.getFeaturesList().stream()
                                        .filter(f -> !name(f).equals("age"))
                                        .toList())
                        .build();
        String row = body(StatsReport.of("a", a).compare("b", b).build().html(), "age");
        assertTrue(row.contains("not in this dataset"));
        assertEquals("NaN", attr(row, "data-drift"));
    }

    @Test
    void anomaliesAreMarkedOnTheirFeatureAndTheDatasetsAboveTheTables() throws Exception {
        Path alerts = dir.resolve("alerts.jsonl");
        Files.writeString(
                alerts,
                alert(
                                "color",
                                "ENUM_TYPE_UNEXPECTED_STRING_VALUES",
                                "Unexpected string values",
                                "Examples contain values missing from the schema: <i>violet</i> (~3%).")
                        + "\n\n"
                        + alert(
                                "color",
                                "ENUM_TYPE_UNEXPECTED_STRING_VALUES",
                                "Unexpected string values",
                                "again")
                        + "\n"
                        + alert(
                                "",
                                "DATASET_LOW_NUM_EXAMPLES",
                                "Low num examples in dataset.",
                                "The dataset has 3 examples")
                        + "\n"
                        + alert(
                                "gone",
                                "SCHEMA_MISSING_COLUMN",
                                "Column dropped",
                                "The feature was present in fewer examples than expected.")
                        + "\n");
        List<ReportAnomaly> read = ReportAnomaly.readAlerts(alerts);
        assertEquals(3, read.size());
        assertEquals(2, read.get(0).alerts());
        String page = StatsReport.of("a", stats(8, 100, 0)).anomalies(read).build().html();
        String color = body(page, "color");
        assertTrue(color.startsWith("<tbody class=\"feature anomalous\""));
        assertTrue(color.contains("data-anomalies=\"2\""));
        assertTrue(color.contains("ENUM_TYPE_UNEXPECTED_STRING_VALUES"));
        assertTrue(color.contains("<span class=\"description\">again</span>"), "the last texts");
        assertTrue(color.contains("(2 alerts)"));
        assertTrue(body(page, "age").contains("data-anomalies=\"0\""));
        String header = page.substring(0, page.indexOf("<nav"));
        assertTrue(header.contains("DATASET_LOW_NUM_EXAMPLES"));
        assertTrue(header.contains("<code>gone</code>: "));
        assertFalse(page.contains("<i>violet</i> (~3%)"));
    }

    @Test
    void aLineThatIsNotAnAlertIsNamed() throws Exception {
        Path alerts = dir.resolve("bad.jsonl");
        Files.writeString(alerts, alert("a", "T", "s", "d") + "\n{\"x\": 1}\n");
        var e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        java.io.IOException.class, () -> ReportAnomaly.readAlerts(alerts));
        assertTrue(e.getMessage().contains("line 2 is not an alert"), e.getMessage());
    }

    @Test
    void theSchemasWordOnEachFeature() throws Exception {
        Schema schema =
                com.google.protobuf.TextFormat.parse(
                        "feature { name: 'age' type: INT presence { min_fraction: 1 }"
                                + " int_domain { min: 0 max: 120 } }"
                                + " feature { name: 'label' type: INT }",
                        Schema.class);
        String page = StatsReport.of("a", stats(9, 50, 0)).schema(schema).build().html();
        assertTrue(
                body(page, "age").contains("schema: INT, required, int domain 0..120"),
                body(page, "age"));
        assertTrue(body(page, "price").contains("not in the schema"));
        assertTrue(page.contains("In the schema, not in the statistics</h2><p><code>label</code>"));
    }

    @Test
    void numbersAsShown() {
        assertEquals("12", ReportNumbers.format(12));
        assertEquals("-3", ReportNumbers.format(-3.0));
        assertEquals("0.1235", ReportNumbers.format(0.123456));
        assertEquals("1235", ReportNumbers.format(1234.5));
        assertEquals("1.235e+07", ReportNumbers.format(12345678.9));
        assertEquals("1.000e-05", ReportNumbers.format(0.00001));
        assertEquals("NaN", ReportNumbers.format(Double.NaN));
        assertEquals("-inf", ReportNumbers.format(Double.NEGATIVE_INFINITY));
        assertEquals("0%", ReportNumbers.percent(0));
        assertEquals("<0.1%", ReportNumbers.percent(0.0004));
        assertEquals("12.3%", ReportNumbers.percent(0.1234));
        assertEquals("100%", ReportNumbers.percent(1));
    }

    private static String name(FeatureNameStatistics f) {
        return f.hasPath() ? String.join(".", f.getPath().getStepList()) : f.getName();
    }

    private static String attr(String element, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(element);
        assertTrue(m.find(), name);
        return m.group(1);
    }

    private static String alert(String feature, String type, String shortText, String text) {
        String steps = feature.isEmpty() ? "[]" : "[\"" + feature + "\"]";
        return "{\"alert_id\":\"x\",\"feature_path\":\""
                + feature
                + "\",\"feature_path_steps\":"
                + steps
                + ",\"anomaly_type\":\""
                + type
                + "\",\"severity\":\"ERROR\",\"short_description\":\""
                + shortText
                + "\",\"description\":\""
                + text
                + "\"}";
    }
}
