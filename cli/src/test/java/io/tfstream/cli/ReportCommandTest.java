package io.tfstream.cli;

import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.tfrecord.Compression;
import io.tfstream.validation.report.StatsReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;

/**
 * {@code tfstream report} and {@code tfstream stats --html}: the page of statistics read in each
 * form or computed from TFRecords is the library's page of the same statistics; {@code --compare},
 * {@code --anomalies} from {@code tfstream validate}'s output and {@code --schema} reach it; inputs
 * it cannot use are named.
 */
class ReportCommandTest {
    @TempDir Path dir;

    private Path wide(String name, int n, long seed) throws Exception {
        return TestRecords.write(
                dir.resolve(name), WideProfileCorpus.records(n, seed), Compression.GZIP);
    }

    private DatasetFeatureStatisticsList stats(Path records, Path out) throws Exception {
        CliRun run = CliRun.of("stats", "--out", out.toString(), records.toString());
        assertEquals(0, run.exitCode(), run.err());
        return DatasetFeatureStatisticsList.parseFrom(Files.readAllBytes(out));
    }

    @Test
    void statisticsBinaryTextOrTfRecordsGiveTheLibrarysPage() throws Exception {
        Files.createDirectories(dir.resolve("shards"));
        Path records = wide("shards/wide.tfrecord.gz", 400, 3);
        Path pb = dir.resolve("s.pb");
        DatasetFeatureStatisticsList list = stats(records, pb);
        String want = StatsReport.of("s.pb", list.getDatasets(0)).build().html();

        Path html = dir.resolve("r.html");
        CliRun run = CliRun.of("report", pb.toString(), "--out", html.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("400 examples, 52 features: " + html + "\n", run.out());
        assertEquals(want, Files.readString(html));

        Path text =
                Files.writeString(dir.resolve("s.pb"), TextFormat.printer().printToString(list));
        assertEquals(0, CliRun.of("report", text.toString(), "--out", html.toString()).exitCode());
        assertEquals(want, Files.readString(html));

        // the records themselves: their statistics computed as tfstream stats computes them
        assertEquals(
                0, CliRun.of("report", records.toString(), "--out", html.toString()).exitCode());
        assertEquals(
                StatsReport.of("wide.tfrecord.gz", list.getDatasets(0)).build().html(),
                Files.readString(html));
        // a directory of shards too
        assertEquals(
                0,
                CliRun.of("report", dir.resolve("shards").toString(), "--out", html.toString())
                        .exitCode());
        assertTrue(Files.readString(html).contains("400 examples"));
    }

    @Test
    void compareShowsBothDatasetsAndTheirDrift() throws Exception {
        DatasetFeatureStatisticsList a = stats(wide("a.tfrecord", 300, 1), dir.resolve("a.pb"));
        DatasetFeatureStatisticsList b = stats(wide("b.tfrecord", 200, 2), dir.resolve("b.pb"));
        Path html = dir.resolve("r.html");
        CliRun run =
                CliRun.of(
                        "report",
                        dir.resolve("a.pb").toString(),
                        "--compare",
                        dir.resolve("b.pb").toString(),
                        "--title",
                        "a against b",
                        "--out",
                        html.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                StatsReport.of("a.pb", a.getDatasets(0))
                        .compare("b.pb", b.getDatasets(0))
                        .title("a against b")
                        .build()
                        .html(),
                Files.readString(html));
    }

    @Test
    void theAlertsOfValidateAreMarked() throws Exception {
        Path schema =
                Files.writeString(
                        dir.resolve("schema.pbtxt"),
                        "feature { name: 'pay' type: BYTES string_domain { value: 'cash' value:"
                                + " 'card' } }\nfeature { name: 'n' type: INT }\n");
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            records.add(
                    Example.newBuilder()
                            .setFeatures(
                                    Features.newBuilder()
                                            .putFeature(
                                                    "pay", strings(i % 10 == 0 ? "iou" : "cash"))
                                            .putFeature("n", int64s(i)))
                            .build()
                            .toByteArray());
        }
        Path file = TestRecords.write(dir.resolve("pay.tfrecord"), records, Compression.NONE);
        CliRun validate = CliRun.of("validate", "--schema", schema.toString(), file.toString());
        assertEquals(1, validate.exitCode(), validate.err());
        Path alerts = Files.writeString(dir.resolve("alerts.jsonl"), validate.out());
        Path html = dir.resolve("r.html");
        CliRun run =
                CliRun.of(
                        "report",
                        file.toString(),
                        "--anomalies",
                        alerts.toString(),
                        "--schema",
                        schema.toString(),
                        "--out",
                        html.toString());
        assertEquals(0, run.exitCode(), run.err());
        String page = Files.readString(html);
        int pay = page.indexOf("data-name=\"pay\"");
        String row = page.substring(page.lastIndexOf("<tbody", pay), page.indexOf("</tbody>", pay));
        assertTrue(row.startsWith("<tbody class=\"feature anomalous\""), row);
        assertTrue(row.contains("ENUM_TYPE_UNEXPECTED_STRING_VALUES"), row);
        assertTrue(row.contains("schema: BYTES, string domain of 2"), row);
        assertTrue(page.contains("data-name=\"n\" data-missing=\"0.0\" data-nonuniformity="));
    }

    @Test
    void statsWritesThePageBesideTheStatistics() throws Exception {
        Path records =
                TestRecords.write(
                        dir.resolve("seed.tfrecord"),
                        Seed001Corpus.records(100, 5),
                        Compression.NONE);
        Path pb = dir.resolve("s.pb");
        Path html = dir.resolve("s.html");
        CliRun run =
                CliRun.of(
                        "stats",
                        "--out",
                        pb.toString(),
                        "--html",
                        html.toString(),
                        records.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("tfstream stats: report: " + html), run.err());
        assertEquals(
                StatsReport.of(
                                "seed.tfrecord",
                                DatasetFeatureStatisticsList.parseFrom(Files.readAllBytes(pb))
                                        .getDatasets(0))
                        .build()
                        .html(),
                Files.readString(html));
    }

    @Test
    void inputsItCannotUseAreNamed() throws Exception {
        Path html = dir.resolve("r.html");
        Path junk = Files.writeString(dir.resolve("junk.txt"), "not statistics {");
        CliRun run = CliRun.of("report", junk.toString(), "--out", html.toString());
        assertEquals(2, run.exitCode());
        assertTrue(
                run.err().contains("is neither statistics (binary or text) nor TFRecords"),
                run.err());
        assertFalse(Files.exists(html));

        CliRun missing =
                CliRun.of("report", dir.resolve("nope.pb").toString(), "--out", html.toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("no such file or directory"), missing.err());

        DatasetFeatureStatisticsList a = stats(wide("a.tfrecord", 20, 1), dir.resolve("a.pb"));
        Path two = dir.resolve("two.pb");
        Files.write(
                two,
                a.toBuilder()
                        .addDatasets(a.getDatasets(0).toBuilder().setName("eval"))
                        .setDatasets(0, a.getDatasets(0).toBuilder().setName("train"))
                        .build()
                        .toByteArray());
        CliRun which = CliRun.of("report", two.toString(), "--out", html.toString());
        assertEquals(2, which.exitCode());
        assertTrue(which.err().contains("name one with --split: [train, eval]"), which.err());
        assertEquals(
                0,
                CliRun.of("report", two.toString(), "--split", "eval", "--out", html.toString())
                        .exitCode());
        assertTrue(Files.readString(html).contains("two.pb (eval)"));

        Path alerts = Files.writeString(dir.resolve("alerts.jsonl"), "{}\n");
        CliRun bad =
                CliRun.of(
                        "report",
                        two.toString(),
                        "--split",
                        "eval",
                        "--anomalies",
                        alerts.toString(),
                        "--out",
                        html.toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("line 1 is not an alert"), bad.err());
    }
}
