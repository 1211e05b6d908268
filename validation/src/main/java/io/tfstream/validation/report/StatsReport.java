package io.tfstream.validation.report;

import io.tfstream.validation.StatisticsDrift;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.Schema;

/**
 * A self-contained HTML page of a dataset's TFDV statistics, the layout of Facets Overview: numeric
 * and categorical features in two tables, each feature's figures and histograms (inline SVG),
 * sorting (name, missing, non-uniformity, drift, anomalies) and a name filter, anomalies marked
 * with TFDV's texts. With a second dataset ({@link Builder#compare}) each feature shows both, its
 * histograms overlaid, and its drift as {@link StatisticsDrift} computes it (L-infinity for
 * categorical features, Jensen-Shannon for numeric ones), by which the features are sorted.
 *
 * <p>Everything is inline (styles, script, charts) and the page's content security policy allows no
 * request at all, so it opens from disk or a bucket, offline. The page is the same bytes for the
 * same inputs: no time or host is written into it.
 */
public final class StatsReport {
    private final String title;
    private final String lhsName;
    private final DatasetFeatureStatistics lhs;
    private final String rhsName;
    private final DatasetFeatureStatistics rhs;
    private final List<ReportAnomaly> anomalies;
    private final Schema schema;

    private StatsReport(Builder b) {
        this.title = b.title;
        this.lhsName = b.lhsName;
        this.lhs = b.lhs;
        this.rhsName = b.rhsName;
        this.rhs = b.rhs;
        this.anomalies = List.copyOf(b.anomalies);
        this.schema = b.schema;
    }

    /** A report of {@code stats}, shown under {@code name} (a file name, say). */
    public static Builder of(String name, DatasetFeatureStatistics stats) {
        return new Builder(name, stats);
    }

    /** What goes in a report besides the first dataset. */
    public static final class Builder {
        private String title = "Feature statistics";
        private final String lhsName;
        private final DatasetFeatureStatistics lhs;
        private String rhsName;
        private DatasetFeatureStatistics rhs;
        private final List<ReportAnomaly> anomalies = new ArrayList<>();
        private Schema schema;

        private Builder(String name, DatasetFeatureStatistics stats) {
            this.lhsName = Objects.requireNonNull(name, "name");
            this.lhs = Objects.requireNonNull(stats, "stats");
        }

        public Builder title(String title) {
            this.title = Objects.requireNonNull(title, "title");
            return this;
        }

        /** Shows {@code stats} beside the first dataset, with each feature's drift from it. */
        public Builder compare(String name, DatasetFeatureStatistics stats) {
            this.rhsName = Objects.requireNonNull(name, "name");
            this.rhs = Objects.requireNonNull(stats, "stats");
            return this;
        }

        /** Marks these anomalies on their features (and the dataset's above the tables). */
        public Builder anomalies(List<ReportAnomaly> anomalies) {
            this.anomalies.addAll(anomalies);
            return this;
        }

        /** Shows each feature's type, presence and domain in this schema, and what it lacks. */
        public Builder schema(Schema schema) {
            this.schema = schema;
            return this;
        }

        public StatsReport build() {
            return new StatsReport(this);
        }
    }

    /** One feature: its statistics in each dataset (null where absent). */
    private record Row(
            List<String> path,
            FeatureNameStatistics left,
            FeatureNameStatistics right,
            FeatureFigures l,
            FeatureFigures r,
            Optional<StatisticsDrift.Drift> drift,
            List<ReportAnomaly> anomalies) {
        FeatureFigures.Kind kind() {
            return (l != null ? l : r).kind();
        }

        String name() {
            return String.join(".", path);
        }
    }

    /** The page. */
    public String html() {
        Map<List<String>, FeatureNameStatistics[]> byPath = new LinkedHashMap<>();
        for (FeatureNameStatistics f : lhs.getFeaturesList()) {
            byPath.computeIfAbsent(path(f), k -> new FeatureNameStatistics[2])[0] = f;
        }
        if (rhs != null) {
            for (FeatureNameStatistics f : rhs.getFeaturesList()) {
                byPath.computeIfAbsent(path(f), k -> new FeatureNameStatistics[2])[1] = f;
            }
        }
        Map<List<String>, List<ReportAnomaly>> marks = new LinkedHashMap<>();
        for (ReportAnomaly a : anomalies) {
            marks.computeIfAbsent(a.featurePath(), k -> new ArrayList<>()).add(a);
        }
        List<Row> numeric = new ArrayList<>();
        List<Row> categorical = new ArrayList<>();
        for (Map.Entry<List<String>, FeatureNameStatistics[]> e : byPath.entrySet()) {
            FeatureNameStatistics a = e.getValue()[0];
            FeatureNameStatistics b = e.getValue()[1];
            Row row =
                    new Row(
                            e.getKey(),
                            a,
                            b,
                            a == null ? null : FeatureFigures.of(a),
                            b == null ? null : FeatureFigures.of(b),
                            a != null && b != null ? StatisticsDrift.of(a, b) : Optional.empty(),
                            marks.getOrDefault(e.getKey(), List.of()));
            (row.kind() == FeatureFigures.Kind.NUMERIC ? numeric : categorical).add(row);
        }
        StringBuilder h = new StringBuilder(64 * 1024 + byPath.size() * 4096);
        boolean compare = rhs != null;
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append(
                        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                                + " style-src 'unsafe-inline'; script-src 'unsafe-inline'\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>")
                .append(Html.text(title))
                .append("</title><style>")
                .append(resource("report.css"))
                .append("</style></head>\n<body data-chart=\"standard\" data-compare=\"")
                .append(compare)
                .append("\">\n<header><h1>")
                .append(Html.text(title))
                .append("</h1><table class=\"datasets\"><tbody>");
        dataset(h, "s0", lhsName, lhs);
        if (compare) {
            dataset(h, "s1", rhsName, rhs);
        }
        h.append("</tbody></table>");
        datasetAnomalies(h, byPath, marks);
        schemaNotes(h, byPath);
        h.append("</header>\n");
        controls(h, compare);
        table(h, "numeric", "Numeric features", numeric, compare);
        table(h, "categorical", "Categorical features", categorical, compare);
        h.append("<script>").append(resource("report.js")).append("</script>\n</body></html>\n");
        return h.toString();
    }

    private static List<String> path(FeatureNameStatistics f) {
        return f.hasPath() ? f.getPath().getStepList() : List.of(f.getName());
    }

    private static void dataset(
            StringBuilder h, String side, String name, DatasetFeatureStatistics d) {
        h.append("<tr class=\"dataset ")
                .append(side)
                .append("\"><th><span class=\"swatch ")
                .append(side)
                .append("\"></span>")
                .append(Html.text(name))
                .append(d.getName().isEmpty() ? "" : " (" + Html.text(d.getName()) + ")")
                .append("</th><td class=\"examples\" data-value=\"")
                .append(d.getNumExamples())
                .append("\">")
                .append(d.getNumExamples())
                .append(" examples</td><td>")
                .append(d.getFeaturesCount())
                .append(" features</td>");
        if (d.getWeightedNumExamples() > 0) {
            h.append("<td>weighted examples: ")
                    .append(ReportNumbers.format(d.getWeightedNumExamples()))
                    .append("</td>");
        }
        h.append("</tr>");
    }

    /** Anomalies of the dataset, and of features the statistics do not have. */
    private void datasetAnomalies(
            StringBuilder h,
            Map<List<String>, FeatureNameStatistics[]> byPath,
            Map<List<String>, List<ReportAnomaly>> marks) {
        List<ReportAnomaly> outside = new ArrayList<>();
        for (Map.Entry<List<String>, List<ReportAnomaly>> e : marks.entrySet()) {
            if (e.getKey().isEmpty() || !byPath.containsKey(e.getKey())) {
                outside.addAll(e.getValue());
            }
        }
        if (outside.isEmpty()) {
            return;
        }
        h.append("<section class=\"anomalies dataset-anomalies\"><h2>Anomalies not shown on a")
                .append(" feature below</h2><ul>");
        for (ReportAnomaly a : outside) {
            h.append("<li>");
            if (!a.featurePath().isEmpty()) {
                h.append("<code>")
                        .append(Html.text(String.join(".", a.featurePath())))
                        .append("</code>: ");
            }
            anomaly(h, a);
            h.append("</li>");
        }
        h.append("</ul></section>");
    }

    /** Features of the schema that neither dataset has. */
    private void schemaNotes(StringBuilder h, Map<List<String>, FeatureNameStatistics[]> byPath) {
        if (schema == null) {
            return;
        }
        List<String> absent = new ArrayList<>();
        for (var f : schema.getFeatureList()) {
            if (!byPath.containsKey(List.of(f.getName()))) {
                absent.add(f.getName());
            }
        }
        if (absent.isEmpty()) {
            return;
        }
        h.append("<section class=\"schema-absent\"><h2>In the schema, not in the statistics</h2>")
                .append("<p>");
        for (int i = 0; i < absent.size(); i++) {
            h.append(i == 0 ? "" : ", ")
                    .append("<code>")
                    .append(Html.text(absent.get(i)))
                    .append("</code>");
        }
        h.append("</p></section>");
    }

    private static void controls(StringBuilder h, boolean compare) {
        h.append("<nav class=\"controls\"><label>Filter <input id=\"filter\" type=\"search\"")
                .append(" placeholder=\"feature name\" autocomplete=\"off\"></label>")
                .append("<label>Sort by <select id=\"sort\">")
                .append(option("name", "name", !compare))
                .append(option("missing", "missing", false))
                .append(option("nonuniformity", "non-uniformity", false));
        if (compare) {
            h.append(option("drift", "drift", true));
        }
        h.append(option("anomalies", "anomalies", false))
                .append("</select></label><label><input id=\"reverse\" type=\"checkbox\">")
                .append(" reverse</label><label>Chart <select id=\"chart\">")
                .append(option("standard", "standard", true))
                .append(option("quantiles", "quantiles", false))
                .append("</select></label><span id=\"shown\"></span></nav>\n");
    }

    private static String option(String value, String text, boolean selected) {
        return "<option value=\""
                + value
                + "\""
                + (selected ? " selected" : "")
                + ">"
                + text
                + "</option>";
    }

    private void table(
            StringBuilder h, String id, String caption, List<Row> rows, boolean compare) {
        boolean numeric = id.equals("numeric");
        h.append("<section id=\"")
                .append(id)
                .append("\"><h2>")
                .append(caption)
                .append(" (<span class=\"count\">")
                .append(rows.size())
                .append("</span>)</h2><table class=\"features\" id=\"")
                .append(id)
                .append("-table\"><thead><tr><th>feature</th>");
        if (compare) {
            h.append("<th>dataset</th>");
        }
        List<String[]> columns = numeric ? NUMERIC_COLUMNS : CATEGORICAL_COLUMNS;
        for (String[] c : columns) {
            h.append("<th title=\"").append(c[2]).append("\">").append(c[1]).append("</th>");
        }
        if (compare) {
            h.append(
                    numeric
                            ? "<th title=\"Jensen-Shannon divergence of the STANDARD histograms\">"
                                    + "drift (JSD)</th>"
                            : "<th title=\"L-infinity distance of the value distributions\">"
                                    + "drift (L∞)</th>");
        }
        h.append("<th>chart</th></tr></thead>\n");
        for (Row r : rows) {
            row(h, r, columns, numeric, compare);
        }
        h.append("</table></section>\n");
    }

    /** Figure columns: {field, heading, tooltip}. */
    private static final List<String[]> NUMERIC_COLUMNS =
            List.of(
                    new String[] {"count", "count", "examples with the feature"},
                    new String[] {"missing", "missing", "share of examples without it"},
                    new String[] {"mean", "mean", "mean of the values"},
                    new String[] {"std_dev", "std dev", "standard deviation of the values"},
                    new String[] {"zeros", "zeros", "share of the values that are 0"},
                    new String[] {"min", "min", "smallest value"},
                    new String[] {"median", "median", "median value"},
                    new String[] {"max", "max", "largest value"},
                    new String[] {"values", "values", "values per example: average (min–max)"});

    private static final List<String[]> CATEGORICAL_COLUMNS =
            List.of(
                    new String[] {"count", "count", "examples with the feature"},
                    new String[] {"missing", "missing", "share of examples without it"},
                    new String[] {"unique", "unique", "distinct values"},
                    new String[] {"top", "top value", "most frequent value (its count)"},
                    new String[] {"avg_length", "avg length", "average length of a value"},
                    new String[] {"values", "values", "values per example: average (min–max)"},
                    new String[] {"top_values", "top values", "the most frequent values"});

    private void row(
            StringBuilder h, Row r, List<String[]> columns, boolean numeric, boolean compare) {
        double missing =
                Math.max(
                        r.l == null ? 0 : r.l.presence().missing(),
                        r.r == null ? 0 : r.r.presence().missing());
        FeatureFigures first = r.l != null ? r.l : r.r;
        double drift = r.drift.map(StatisticsDrift.Drift::value).orElse(Double.NaN);
        int alerts = 0;
        for (ReportAnomaly a : r.anomalies) {
            alerts += a.alerts();
        }
        h.append("<tbody class=\"feature")
                .append(r.anomalies.isEmpty() ? "" : " anomalous")
                .append("\" data-name=\"")
                .append(Html.text(r.name()))
                .append("\" data-missing=\"")
                .append(ReportNumbers.exact(missing))
                .append("\" data-nonuniformity=\"")
                .append(ReportNumbers.exact(first.nonUniformity()))
                .append("\" data-drift=\"")
                .append(ReportNumbers.exact(drift))
                .append("\" data-anomalies=\"")
                .append(alerts)
                .append("\">");
        int sides = compare ? 2 : 1;
        for (int s = 0; s < sides; s++) {
            FeatureFigures f = s == 0 ? r.l : r.r;
            h.append("<tr class=\"s").append(s).append("\">");
            if (s == 0) {
                h.append("<th class=\"name\" scope=\"rowgroup\" rowspan=\"")
                        .append(sides)
                        .append("\"><span class=\"fname\">")
                        .append(Html.text(r.name()))
                        .append("</span><span class=\"type\">")
                        .append(first.type())
                        .append("</span>");
                schemaNote(h, r.path);
                for (ReportAnomaly a : r.anomalies) {
                    h.append("<div class=\"anomaly\">");
                    anomaly(h, a);
                    h.append("</div>");
                }
                h.append("</th>");
            }
            if (compare) {
                h.append("<td class=\"side\"><span class=\"swatch s")
                        .append(s)
                        .append("\"></span>")
                        .append(Html.text(s == 0 ? lhsName : rhsName))
                        .append("</td>");
            }
            if (f == null) {
                h.append("<td class=\"absent\" colspan=\"")
                        .append(columns.size())
                        .append("\">not in this dataset</td>");
            } else {
                for (String[] c : columns) {
                    cell(h, c[0], f);
                }
            }
            if (s == 0) {
                if (compare) {
                    h.append("<td class=\"drift\" rowspan=\"2\" data-value=\"")
                            .append(ReportNumbers.exact(drift))
                            .append("\">");
                    if (r.drift.isPresent()) {
                        h.append(ReportNumbers.format(drift));
                        String at = r.drift.get().atValue();
                        if (at != null && !at.isEmpty()) {
                            h.append("<div class=\"at\">at ")
                                    .append(Html.text(at))
                                    .append("</div>");
                        }
                    } else {
                        h.append("–");
                    }
                    h.append("</td>");
                }
                h.append("<td class=\"charts\" rowspan=\"").append(sides).append("\">");
                FeatureFigures a = r.l;
                FeatureFigures b = r.r;
                if (numeric) {
                    h.append(
                            Charts.numeric(
                                    "standard",
                                    a == null ? null : a.standard(),
                                    b == null ? null : b.standard()));
                    h.append(
                            Charts.numeric(
                                    "quantiles",
                                    a == null ? null : a.quantiles(),
                                    b == null ? null : b.quantiles()));
                } else {
                    h.append(
                            Charts.categorical(
                                    a == null ? null : a.ranks(), b == null ? null : b.ranks()));
                }
                h.append("</td>");
            }
            h.append("</tr>");
        }
        h.append("</tbody>\n");
    }

    private static void cell(StringBuilder h, String field, FeatureFigures f) {
        switch (field) {
            case "count" ->
                    figure(
                            h,
                            field,
                            f.presence().count(),
                            ReportNumbers.format(f.presence().count()));
            case "missing" ->
                    figure(
                            h,
                            field,
                            f.presence().missing(),
                            ReportNumbers.percent(f.presence().missing()));
            case "mean" -> figure(h, field, f.mean(), ReportNumbers.format(f.mean()));
            case "std_dev" -> figure(h, field, f.stdDev(), ReportNumbers.format(f.stdDev()));
            case "zeros" -> figure(h, field, f.zeros(), ReportNumbers.percent(f.zeros()));
            case "min" -> figure(h, field, f.min(), ReportNumbers.format(f.min()));
            case "median" -> figure(h, field, f.median(), ReportNumbers.format(f.median()));
            case "max" -> figure(h, field, f.max(), ReportNumbers.format(f.max()));
            case "unique" -> figure(h, field, f.unique(), ReportNumbers.format(f.unique()));
            case "avg_length" ->
                    figure(h, field, f.avgLength(), ReportNumbers.format(f.avgLength()));
            case "values" -> {
                h.append("<td class=\"num\" data-field=\"values\" data-value=\"")
                        .append(ReportNumbers.exact(f.presence().avgValues()))
                        .append("\" data-min=\"")
                        .append(ReportNumbers.exact(f.presence().minValues()))
                        .append("\" data-max=\"")
                        .append(ReportNumbers.exact(f.presence().maxValues()))
                        .append("\">")
                        .append(ReportNumbers.format(f.presence().avgValues()))
                        .append(" <span class=\"range\">(")
                        .append(ReportNumbers.format(f.presence().minValues()))
                        .append("–")
                        .append(ReportNumbers.format(f.presence().maxValues()))
                        .append(")</span></td>");
            }
            case "top" -> {
                if (f.topValues().isEmpty()) {
                    h.append("<td data-field=\"top\"></td>");
                } else {
                    var t = f.topValues().get(0);
                    h.append("<td class=\"value\" data-field=\"top\" data-value=\"")
                            .append(Html.text(t.getValue()))
                            .append("\" data-count=\"")
                            .append(ReportNumbers.exact(t.getFrequency()))
                            .append("\">")
                            .append(Html.text(t.getValue()))
                            .append(" <span class=\"range\">(")
                            .append(ReportNumbers.format(t.getFrequency()))
                            .append(")</span></td>");
                }
            }
            case "top_values" -> {
                h.append("<td class=\"top-values\" data-field=\"top_values\"><ol>");
                int n = 0;
                for (var t : f.topValues()) {
                    if (n++ == 5) {
                        break;
                    }
                    h.append("<li data-value=\"")
                            .append(Html.text(t.getValue()))
                            .append("\">")
                            .append(Html.text(t.getValue()))
                            .append(" <span class=\"range\">")
                            .append(ReportNumbers.format(t.getFrequency()))
                            .append("</span></li>");
                }
                h.append("</ol></td>");
            }
            default -> throw new IllegalArgumentException(field);
        }
    }

    private static void figure(StringBuilder h, String field, double v, String text) {
        if (Double.isNaN(v) && !text.equals("NaN")) {
            text = "";
        }
        h.append("<td class=\"num\" data-field=\"")
                .append(field)
                .append("\" data-value=\"")
                .append(ReportNumbers.exact(v))
                .append("\">")
                .append(Double.isNaN(v) ? "" : Html.text(text))
                .append("</td>");
    }

    private static void anomaly(StringBuilder h, ReportAnomaly a) {
        h.append("<span class=\"severity ")
                .append(Html.text(a.severity().toLowerCase(java.util.Locale.ROOT)))
                .append("\">")
                .append(Html.text(a.severity()))
                .append("</span> <span class=\"anomaly-type\">")
                .append(Html.text(a.anomalyType()))
                .append("</span>: <span class=\"short\">")
                .append(Html.text(a.shortDescription()))
                .append("</span>");
        if (!a.description().isEmpty()) {
            h.append(" <span class=\"description\">")
                    .append(Html.text(a.description()))
                    .append("</span>");
        }
        if (a.alerts() > 1) {
            h.append(" <span class=\"alerts\">(").append(a.alerts()).append(" alerts)</span>");
        }
    }

    /** The schema's word on a top-level feature: type, presence and domain. */
    private void schemaNote(StringBuilder h, List<String> path) {
        if (schema == null || path.size() != 1) {
            return;
        }
        for (var f : schema.getFeatureList()) {
            if (!f.getName().equals(path.get(0))) {
                continue;
            }
            List<String> words = new ArrayList<>();
            words.add(f.getType().name());
            if (f.hasPresence()) {
                words.add(
                        f.getPresence().getMinFraction() >= 1
                                ? "required"
                                : "min fraction "
                                        + ReportNumbers.format(f.getPresence().getMinFraction()));
            }
            if (f.hasValueCount()) {
                words.add(
                        "values "
                                + f.getValueCount().getMin()
                                + "–"
                                + (f.getValueCount().hasMax() ? f.getValueCount().getMax() : "∞"));
            }
            if (f.hasShape()) {
                words.add("shape " + f.getShape().getDimCount() + "-d");
            }
            if (f.hasIntDomain()) {
                var d = f.getIntDomain();
                words.add(
                        "int domain "
                                + (d.hasMin() ? d.getMin() : "")
                                + ".."
                                + (d.hasMax() ? d.getMax() : ""));
            } else if (f.hasFloatDomain()) {
                var d = f.getFloatDomain();
                words.add(
                        "float domain "
                                + (d.hasMin() ? ReportNumbers.format(d.getMin()) : "")
                                + ".."
                                + (d.hasMax() ? ReportNumbers.format(d.getMax()) : ""));
            } else if (f.hasStringDomain()) {
                words.add("string domain of " + f.getStringDomain().getValueCount());
            } else if (f.hasDomain()) {
                words.add("domain " + f.getDomain());
            } else if (f.hasBoolDomain()) {
                words.add("bool domain");
            }
            h.append("<div class=\"schema\">schema: ")
                    .append(Html.text(String.join(", ", words)))
                    .append("</div>");
            return;
        }
        h.append("<div class=\"schema\">not in the schema</div>");
    }

    private static String resource(String name) {
        try (InputStream in = StatsReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
