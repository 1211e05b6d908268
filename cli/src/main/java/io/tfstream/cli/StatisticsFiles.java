package io.tfstream.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.TextFormat;
import io.tfstream.text.Quoted;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;

/**
 * Statistics files as the commands read them: a {@code DatasetFeatureStatisticsList}, binary
 * ({@code tfstream stats --out}, TFDV's {@code load_stats_binary} format, a bucket's {@code
 * FeatureStats.pb}) or text, and one dataset of it.
 */
final class StatisticsFiles {
    private StatisticsFiles() {}

    /**
     * The statistics in {@code file}, binary or text.
     *
     * @throws IOException when it cannot be read, or is neither form
     */
    static DatasetFeatureStatisticsList read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        try {
            return DatasetFeatureStatisticsList.parseFrom(bytes);
        } catch (InvalidProtocolBufferException binary) {
            return TextFormat.parse(
                    new String(bytes, StandardCharsets.UTF_8), DatasetFeatureStatisticsList.class);
        }
    }

    /**
     * The one dataset of {@code list}, or the one named {@code split}; null, reported on {@code
     * err} after {@code command}, otherwise.
     */
    static DatasetFeatureStatistics dataset(
            String command, DatasetFeatureStatisticsList list, String split, PrintWriter err) {
        List<String> names = list.getDatasetsList().stream().map(d -> d.getName()).toList();
        if (split == null && list.getDatasetsCount() == 1) {
            return list.getDatasets(0);
        }
        for (DatasetFeatureStatistics d : list.getDatasetsList()) {
            if (d.getName().equals(split)) {
                return d;
            }
        }
        err.println(
                command
                        + ": "
                        + (split == null
                                ? "the statistics hold "
                                        + names.size()
                                        + " datasets; name one with --split: "
                                : "no dataset '"
                                        + Quoted.cut(split)
                                        + "' in the statistics; they hold: ")
                        + names);
        return null;
    }
}
