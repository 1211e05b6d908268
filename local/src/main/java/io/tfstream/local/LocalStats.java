package io.tfstream.local;

import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.validation.report.ReportAnomaly;
import io.tfstream.validation.report.StatsReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tensorflow.example.SequenceExample;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;

/**
 * {@code stats.pb} of a local run: TFDV's statistics of the accepted records (those of the shards
 * on disk), for {@code tfstream schema infer --stats} and {@code tfdv.load_stats_binary}; and
 * {@code report.html} beside it, the page of those statistics with the run's alerts marked.
 */
final class LocalStats {
    /** The file's name in the output directory. */
    static final String FILE = "stats.pb";

    /** The statistics' page in the output directory. */
    static final String REPORT = "report.html";

    private LocalStats() {}

    /**
     * Writes the statistics of {@code shards} (relative to {@code outDir}; SequenceExamples when
     * {@code sequence}) and their report (with the anomalies of {@code alerts.jsonl}, when the run
     * left one), and returns the statistics file's name, or null for shards on S3 (not written).
     */
    static String write(Path outDir, ShardListing shards, boolean sequence) throws IOException {
        if (shards.names().stream().anyMatch(n -> n.contains("://"))) {
            return null;
        }
        ExampleStatistics stats = new ExampleStatistics(StatsOptions.DEFAULTS);
        for (String name : shards.names()) {
            try (TfRecordReader r =
                    TfRecordFiles.openReader(
                            outDir.resolve(name), TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    if (sequence) {
                        stats.add(SequenceExample.parseFrom(r.copy()));
                    } else {
                        stats.addSerialized(r.copy());
                    }
                }
            }
        }
        DatasetFeatureStatistics dataset = stats.build("");
        Files.write(
                outDir.resolve(FILE),
                DatasetFeatureStatisticsList.newBuilder()
                        .addDatasets(dataset)
                        .build()
                        .toByteArray());
        Path alerts = outDir.resolve("alerts.jsonl");
        StatsReport.Builder report =
                StatsReport.of(FILE, dataset).title("tfstream local: feature statistics");
        if (Files.isRegularFile(alerts)) {
            report.anomalies(ReportAnomaly.readAlerts(alerts));
        }
        Files.writeString(outDir.resolve(REPORT), report.build().html());
        return FILE;
    }
}
