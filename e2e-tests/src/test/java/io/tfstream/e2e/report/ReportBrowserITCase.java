package io.tfstream.e2e.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.e2e.job.CliJar;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordWriter;
import io.tfstream.validation.report.ReportNumbers;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;
import org.tensorflow.metadata.v0.FeatureNameStatistics;

/**
 * {@code tfstream report} as a user meets it: the CLI jar run as its own process makes the pages
 * ({@code tfstream stats FILE --out s.pb}, then {@code tfstream report s.pb --out r.html}, with and
 * without {@code --compare}, with the alerts of {@code tfstream validate}), and Debian's Chromium,
 * headless, opens each from disk. On every page: each feature's row and figures are those of the
 * statistics proto, sorting and the name filter reorder and hide rows, the histograms are drawn, no
 * request leaves the page and the console has no error. Screenshots and each page's load time (the
 * {@code load} event) are kept in {@code target/report-browser/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportBrowserITCase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path KEPT = Path.of("target", "report-browser");

    @TempDir Path dir;
    private ChromeDriver driver;

    @BeforeAll
    void startChromium() throws Exception {
        Files.createDirectories(KEPT);
        Files.deleteIfExists(KEPT.resolve("load-times.txt"));
        ChromeDriverService service =
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(
                                new File(System.getProperty("tfstream.chromedriver")))
                        .usingAnyFreePort()
                        .build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(System.getProperty("tfstream.chromium"));
        // Chromium's own background traffic off: the machine's network is closed, and a page
        // that loads nothing must not be confused with a browser that phones home.
        o.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory("chromium-profile"),
                "--window-size=1400,1000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        driver = new ChromeDriver(service, o);
    }

    @AfterAll
    void stopChromium() {
        if (driver != null) {
            driver.quit();
        }
    }

    @Test
    void theSampleWithItsAnomaliesAndSchema() throws Exception {
        Path records = write("sample.tfrecord", Seed001Corpus.records(2000, 5));
        Path schema =
                Files.writeString(
                        dir.resolve("schema.pbtxt"),
                        "feature { name: 'feature0' type: INT presence { min_fraction: 1 } }\n"
                                + "feature { name: 'feature1' type: INT int_domain { min: 0 max: 3 } }\n"
                                + "feature { name: 'feature2' type: BYTES string_domain { value: 'cat'"
                                + " value: 'dog' value: 'chicken' value: 'horse' } }\n"
                                + "feature { name: 'feature3' type: FLOAT }\n"
                                + "feature { name: 'label' type: INT }\n");
        Path alerts = dir.resolve("alerts.jsonl");
        String validated = cli(1, "validate", "--schema", schema.toString(), records.toString());
        Files.writeString(alerts, validated);
        Path stats = stats(records);
        Path html = dir.resolve("sample.html");
        cli(
                0,
                "report",
                stats.toString(),
                "--anomalies",
                alerts.toString(),
                "--schema",
                schema.toString(),
                "--out",
                html.toString());
        DatasetFeatureStatistics s = read(stats);
        List<Map<String, Object>> rows = open(html, "sample", s, null);
        Map<String, Object> feature2 = row(rows, "feature2");
        assertTrue((Boolean) feature2.get("anomalous"), "feature2's unexpected value is marked");
        assertTrue(
                ((String) feature2.get("text")).contains("ENUM_TYPE_UNEXPECTED_STRING_VALUES"),
                (String) feature2.get("text"));
        assertTrue(((String) row(rows, "feature0").get("text")).contains("schema: INT, required"));
        assertTrue(text("section.schema-absent").contains("label"));
        filterAndSort("feature1", List.of("feature1"));
        screenshot("sample");
    }

    @Test
    void theSampleAgainstAnotherDay() throws Exception {
        Path a = write("monday.tfrecord", Seed001Corpus.records(1500, 11));
        Path b = write("tuesday.tfrecord", Seed001Corpus.records(1000, 12));
        Path html = dir.resolve("sample-compare.html");
        // the records themselves, their statistics computed by report as by stats
        cli(0, "report", a.toString(), "--compare", b.toString(), "--out", html.toString());
        open(html, "sample-compare", read(stats(a)), read(stats(b)));
        screenshot("sample-compare");
    }

    @Test
    void aWideProfileAsANewUserMakesIt() throws Exception {
        Path stats = stats(write("wide.tfrecord", WideProfileCorpus.records(3000, 21)));
        Path html = dir.resolve("r.html");
        cli(0, "report", stats.toString(), "--out", html.toString());
        open(html, "wide", read(stats), null);
        filterAndSort(
                "F0",
                List.of("f00", "f01", "f02", "f03", "f04", "f05", "f06", "f07", "f08", "f09"));
        screenshot("wide");
    }

    @Test
    void twoWideCorporaCompared() throws Exception {
        Path sa = stats(write("wide-a.tfrecord", WideProfileCorpus.records(2000, 31)));
        Path sb = stats(write("wide-b.tfrecord", WideProfileCorpus.records(1500, 32)));
        Path html = dir.resolve("wide-compare.html");
        cli(0, "report", sa.toString(), "--compare", sb.toString(), "--out", html.toString());
        open(html, "wide-compare", read(sa), read(sb));
        screenshot("wide-compare");
    }

    /** A thousand features: the page stays usable, and its load time is kept. */
    @Test
    void aThousandFeatures() throws Exception {
        Random r = new Random(41);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Features.Builder f = Features.newBuilder();
            for (int k = 0; k < 500; k++) {
                f.putFeature(
                        String.format("num_%03d", k),
                        Feature.newBuilder()
                                .setFloatList(
                                        FloatList.newBuilder()
                                                .addValue((float) (r.nextGaussian() * (k + 1))))
                                .build());
                f.putFeature(
                        String.format("cat_%03d", k),
                        io.tfstream.testkit.ProtoFeatures.strings("v" + r.nextInt(3 + k % 40)));
            }
            records.add(Example.newBuilder().setFeatures(f).build().toByteArray());
        }
        Path stats = stats(write("thousand.tfrecord", records));
        Path html = dir.resolve("thousand.html");
        cli(0, "report", stats.toString(), "--out", html.toString());
        List<Map<String, Object>> rows = open(html, "thousand", read(stats), null);
        assertEquals(1000, rows.size());
        filterAndSort(
                "num_49",
                List.of(
                        "num_490", "num_491", "num_492", "num_493", "num_494", "num_495", "num_496",
                        "num_497", "num_498", "num_499"));
        screenshot("thousand");
    }

    // ---------------------------------------------------------------------------------------

    private Path write(String name, List<byte[]> records) throws Exception {
        Path f = dir.resolve(name);
        try (TfRecordWriter w = TfRecordFiles.newWriter(f, Compression.NONE)) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        return f;
    }

    /** {@code tfstream stats RECORDS --out RECORDS.pb}; returns the statistics file. */
    private Path stats(Path records) throws Exception {
        Path out = records.resolveSibling(records.getFileName() + ".pb");
        cli(0, "stats", records.toString(), "--out", out.toString());
        return out;
    }

    /** Runs the CLI jar; asserts its exit code and returns its stdout. */
    private String cli(int exit, String... args) throws Exception {
        List<String> cmd = CliJar.command();
        cmd.addAll(List.of(args));
        Path out = dir.resolve("cli.out");
        Path err = dir.resolve("cli.err");
        Process p =
                new ProcessBuilder(cmd)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "tfstream " + args[0] + " ends");
        String printed = Files.readString(out);
        assertEquals(exit, p.exitValue(), printed + Files.readString(err));
        return printed;
    }

    private static DatasetFeatureStatistics read(Path stats) throws Exception {
        return DatasetFeatureStatisticsList.parseFrom(Files.readAllBytes(stats)).getDatasets(0);
    }

    private static Map<String, Object> row(List<Map<String, Object>> rows, String name) {
        return rows.stream().filter(r -> r.get("name").equals(name)).findFirst().orElseThrow();
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    private String text(String css) {
        return driver.findElement(By.cssSelector(css)).getText();
    }

    private static final String ROWS =
            "return Array.from(document.querySelectorAll('tbody.feature')).map(function (b) {"
                    + "  return {name: b.dataset.name, table: b.closest('table').id,"
                    + "    anomalous: b.classList.contains('anomalous'), drift: b.dataset.drift,"
                    + "    text: b.querySelector('th.name').innerText,"
                    + "    shown: b.getClientRects().length > 0,"
                    + "    sides: Array.from(b.rows).map(function (tr) {"
                    + "      var cells = {};"
                    + "      tr.querySelectorAll('td[data-field]').forEach(function (td) {"
                    + "        cells[td.dataset.field] = [td.getAttribute('data-value'),"
                    + "                                   td.textContent]; });"
                    + "      return cells; })};"
                    + "});";

    /**
     * Opens {@code html} and checks it against {@code lhs} (and {@code rhs}): the rows and figures,
     * the histograms, the requests and the console. Returns the rows as the page has them.
     */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> open(
            Path html, String name, DatasetFeatureStatistics lhs, DatasetFeatureStatistics rhs)
            throws Exception {
        driver.manage().logs().get(LogType.PERFORMANCE); // drop what earlier pages left
        driver.manage().logs().get(LogType.BROWSER);
        String url = html.toUri().toString();
        driver.get(url);
        Number load =
                (Number)
                        js(
                                "var n = performance.getEntriesByType('navigation')[0];"
                                        + " return n.loadEventEnd - n.startTime;");
        Files.writeString(
                KEPT.resolve("load-times.txt"),
                String.format(
                        "%s: %d features, %d bytes, load event after %.0f ms%n",
                        name, lhs.getFeaturesCount(), Files.size(html), load.doubleValue()),
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);

        // the record count and every feature, by name, in the page's text
        String body = (String) js("return document.body.innerText;");
        assertEquals(
                String.valueOf(lhs.getNumExamples()),
                driver.findElement(By.cssSelector("tr.dataset.s0 td.examples"))
                        .getAttribute("data-value"));
        assertTrue(body.contains(lhs.getNumExamples() + " examples"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) js(ROWS);
        checkFigures(rows, lhs, 0, body);
        if (rhs != null) {
            assertEquals(
                    String.valueOf(rhs.getNumExamples()),
                    driver.findElement(By.cssSelector("tr.dataset.s1 td.examples"))
                            .getAttribute("data-value"));
            checkFigures(rows, rhs, 1, body);
            // sorted by drift, largest first
            List<Double> drift = new ArrayList<>();
            for (Map<String, Object> r : rows) {
                if (r.get("table").equals("numeric-table")) {
                    drift.add(Double.parseDouble((String) r.get("drift")));
                }
            }
            for (int i = 1; i < drift.size(); i++) {
                assertTrue(
                        drift.get(i - 1) >= drift.get(i) || drift.get(i).isNaN(), drift.toString());
            }
        }
        checkCharts();
        checkQuiet(url);
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static void checkFigures(
            List<Map<String, Object>> rows, DatasetFeatureStatistics d, int side, String body) {
        Map<String, Map<String, Object>> byName = new HashMap<>();
        for (Map<String, Object> r : rows) {
            byName.put((String) r.get("name"), r);
        }
        for (FeatureNameStatistics f : d.getFeaturesList()) {
            String name = f.hasPath() ? String.join(".", f.getPath().getStepList()) : f.getName();
            Map<String, Object> r = byName.get(name);
            assertNotNull(r, "a row of " + name);
            assertTrue((Boolean) r.get("shown"), name);
            assertTrue(body.contains(name), name);
            assertEquals(
                    f.hasNumStats() ? "numeric-table" : "categorical-table", r.get("table"), name);
            Map<String, List<String>> cells =
                    ((List<Map<String, List<String>>>) r.get("sides")).get(side);
            var c =
                    f.hasNumStats()
                            ? f.getNumStats().getCommonStats()
                            : f.getStringStats().getCommonStats();
            figure(
                    cells,
                    "count",
                    c.getNumNonMissing(),
                    ReportNumbers.format(c.getNumNonMissing()));
            double missing =
                    (double) c.getNumMissing() / (c.getNumMissing() + c.getNumNonMissing());
            figure(cells, "missing", missing, ReportNumbers.percent(missing));
            assertEquals(Double.toString(c.getAvgNumValues()), cells.get("values").get(0), name);
            if (f.hasNumStats()) {
                var n = f.getNumStats();
                figure(cells, "mean", n.getMean(), ReportNumbers.format(n.getMean()));
                figure(cells, "std_dev", n.getStdDev(), ReportNumbers.format(n.getStdDev()));
                figure(cells, "min", n.getMin(), ReportNumbers.format(n.getMin()));
                figure(cells, "median", n.getMedian(), ReportNumbers.format(n.getMedian()));
                figure(cells, "max", n.getMax(), ReportNumbers.format(n.getMax()));
                double zeros = (double) n.getNumZeros() / c.getTotNumValues();
                figure(cells, "zeros", zeros, ReportNumbers.percent(zeros));
            } else {
                var s = f.getStringStats();
                figure(cells, "unique", s.getUnique(), ReportNumbers.format(s.getUnique()));
                if (s.getTopValuesCount() > 0) {
                    assertEquals(s.getTopValues(0).getValue(), cells.get("top").get(0), name);
                    assertTrue(cells.get("top").get(1).startsWith(s.getTopValues(0).getValue()));
                }
            }
        }
    }

    private static void figure(
            Map<String, List<String>> cells, String field, double v, String text) {
        List<String> cell = cells.get(field);
        assertNotNull(cell, field);
        assertEquals(Double.toString(v), cell.get(0), field);
        assertEquals(text, cell.get(1), field);
    }

    /** Every chart shown has bars of some size; the quantiles replace the standard ones. */
    private void checkCharts() {
        String bars =
                "return Array.from(document.querySelectorAll('svg.chart')).filter(function (s) {"
                        + "  return s.getClientRects().length > 0; }).map(function (s) {"
                        + "  var drawn = Array.from(s.querySelectorAll('rect')).filter(function (r) {"
                        + "    var b = r.getBoundingClientRect(); return b.width > 0 && b.height > 0; });"
                        + "  return s.getAttribute('class') + ':' + drawn.length; });";
        for (String kind : List.of("standard", "quantiles")) {
            new Select(driver.findElement(By.id("chart"))).selectByValue(kind);
            @SuppressWarnings("unchecked")
            List<String> shown = (List<String>) js(bars);
            assertFalse(shown.isEmpty());
            for (String s : shown) {
                String cls = s.substring(0, s.indexOf(':'));
                assertTrue(cls.endsWith(kind) || cls.endsWith("values"), s);
                assertTrue(Integer.parseInt(s.substring(s.indexOf(':') + 1)) > 0, s);
            }
        }
        new Select(driver.findElement(By.id("chart"))).selectByValue("standard");
    }

    /**
     * No request but the page's own (performance log), and no console error (the browser log, which
     * a warning written from the page shows to be read).
     */
    private void checkQuiet(String url) throws Exception {
        List<String> requested = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode m = JSON.readTree(e.getMessage()).path("message");
            if (m.path("method").asText().equals("Network.requestWillBeSent")) {
                requested.add(m.path("params").path("request").path("url").asText());
            }
        }
        assertEquals(List.of(url), requested);
        js("console.warn('tfstream-probe');");
        List<String> severe = new ArrayList<>();
        boolean probe = false;
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
                severe.add(e.getMessage());
            }
            probe |= e.getMessage().contains("tfstream-probe");
        }
        assertTrue(probe, "the console is read");
        assertEquals(List.of(), severe);
    }

    /**
     * Filters by {@code query} (any case): exactly {@code expected} are shown; then each sort order
     * holds in every table, and reverse reverses it.
     */
    private void filterAndSort(String query, List<String> expected) {
        WebElement filter = driver.findElement(By.id("filter"));
        filter.clear();
        filter.sendKeys(query);
        List<String> shown = names(true);
        assertEquals(expected.stream().sorted().toList(), shown.stream().sorted().toList());
        int all = names(false).size();
        assertEquals(expected.size() + " of " + all + " features shown", text("#shown"));
        filter.clear();
        filter.sendKeys("x"); // clear() fires no input event: type, then delete
        filter.sendKeys(org.openqa.selenium.Keys.BACK_SPACE);
        assertEquals(all, names(true).size());

        Select sort = new Select(driver.findElement(By.id("sort")));
        sort.selectByValue("name");
        for (String table : List.of("numeric-table", "categorical-table")) {
            List<String> names = tableNames(table);
            assertEquals(names.stream().sorted().toList(), names, table);
        }
        sort.selectByValue("missing");
        for (String table : List.of("numeric-table", "categorical-table")) {
            List<String[]> keyed = tableKeys(table, "missing");
            for (int i = 1; i < keyed.size(); i++) {
                double a = Double.parseDouble(keyed.get(i - 1)[1]);
                double b = Double.parseDouble(keyed.get(i)[1]);
                assertTrue(
                        a > b || (a == b && keyed.get(i - 1)[0].compareTo(keyed.get(i)[0]) < 0),
                        table + " by missing at " + i);
            }
        }
        sort.selectByValue("nonuniformity");
        List<String> forward = tableNames("numeric-table");
        driver.findElement(By.id("reverse")).click();
        List<String> back = new ArrayList<>(tableNames("numeric-table"));
        java.util.Collections.reverse(back);
        assertEquals(forward, back);
        driver.findElement(By.id("reverse")).click();
        sort.selectByValue("name");
    }

    @SuppressWarnings("unchecked")
    private List<String> names(boolean shownOnly) {
        return (List<String>)
                js(
                        "var only = arguments[0];"
                                + " return Array.from(document.querySelectorAll('tbody.feature'))"
                                + ".filter(function (b) { return !only || b.getClientRects().length > 0; })"
                                + ".map(function (b) { return b.dataset.name; });",
                        shownOnly);
    }

    @SuppressWarnings("unchecked")
    private List<String> tableNames(String table) {
        return (List<String>)
                js(
                        "return Array.from(document.getElementById(arguments[0]).tBodies)"
                                + ".map(function (b) { return b.dataset.name; });",
                        table);
    }

    @SuppressWarnings("unchecked")
    private List<String[]> tableKeys(String table, String key) {
        List<List<String>> got =
                (List<List<String>>)
                        js(
                                "var k = arguments[1];"
                                        + " return Array.from(document.getElementById(arguments[0]).tBodies)"
                                        + ".map(function (b) { return [b.dataset.name,"
                                        + " b.getAttribute('data-' + k)]; });",
                                table,
                                key);
        return got.stream().map(l -> l.toArray(new String[0])).toList();
    }

    /** Keeps a screenshot, and checks it is not blank. */
    private void screenshot(String name) throws Exception {
        byte[] png = driver.getScreenshotAs(OutputType.BYTES);
        Files.write(KEPT.resolve(name + ".png"), png);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        long inked = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                if ((image.getRGB(x, y) & 0xffffff) != 0xffffff) {
                    inked++;
                }
            }
        }
        long sampled = (long) (image.getWidth() / 2) * (image.getHeight() / 2);
        assertTrue(inked > sampled / 50, name + ": " + inked + " of " + sampled + " pixels drawn");
    }
}
