package io.tfstream.operators.shards;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.stats.StatsRole;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.tensorflow.example.Example;
import org.tensorflow.example.SequenceExample;

/**
 * TFDV's feature statistics of the shard sink's shards ({@code shards.statistics}): each open shard
 * keeps the statistics of its records (every feature, the schema's roles, sketched top values),
 * which travel with it through checkpoints and its committable; the committer stores them beside
 * the shard's manifest, and a bucket's {@code _SUCCESS} writer merges those of its shards into the
 * bucket's {@code FeatureStats.pb} per data split ({@link SuccessMarkers}).
 *
 * <p>Bytes (version {@link #FORMAT}): format, the {@link #key} of the settings they were kept with,
 * then {@link ExampleStatistics#write}. Statistics kept with other settings are not merged: the
 * bucket's writer reads that shard back instead ({@link #readBack}).
 *
 * @param epsilon the quantile sketches' error ({@code statistics.epsilon})
 * @param weightFeature the weight feature ({@code statistics.weight-feature}), or null
 * @param roles what the schema makes of each feature's statistics ({@link StatsRole#of})
 * @param sequence whether records are SequenceExamples
 * @param report whether each bucket's {@code report.html} is written beside its statistics ({@code
 *     shards.statistics-report})
 */
@Internal
public record ShardFeatureStatistics(
        double epsilon,
        String weightFeature,
        TreeMap<String, StatsRole> roles,
        boolean sequence,
        boolean report)
        implements Serializable {
    static final int FORMAT = 1;

    /** Features per statistics at most when reading bytes back. */
    private static final int MAX_FEATURES = 1 << 20;

    public ShardFeatureStatistics {
        Objects.requireNonNull(roles, "roles");
        StatsOptions.DEFAULTS.withEpsilon(epsilon); // checks it
    }

    /** Settings of statistics with {@code roles} (by feature name, as {@link StatsRole#of}). */
    public static ShardFeatureStatistics of(
            double epsilon, String weightFeature, Map<String, StatsRole> roles, boolean sequence) {
        return new ShardFeatureStatistics(
                epsilon, weightFeature, new TreeMap<>(roles), sequence, false);
    }

    /** These settings with each bucket's report written ({@code report}) or not. */
    public ShardFeatureStatistics withReport(boolean report) {
        return new ShardFeatureStatistics(epsilon, weightFeature, roles, sequence, report);
    }

    /** The sketches' options: TFDV's sizes, this epsilon, sketched top values (bounded memory). */
    StatsOptions options() {
        return StatsOptions.DEFAULTS.withEpsilon(epsilon).withSketchTopValues(true);
    }

    /** Empty statistics kept with these settings. */
    ExampleStatistics empty() {
        return ExampleStatistics.lenient(options(), weightFeature, roles);
    }

    /**
     * Adds serialized record {@code record}. One that protobuf refuses (the parse accepted it: a
     * feature name that is not UTF-8, say) counts as a record without features.
     */
    void add(ExampleStatistics stats, byte[] record) {
        try {
            if (sequence) {
                stats.add(SequenceExample.parseFrom(record));
            } else {
                stats.addSerialized(record);
            }
        } catch (InvalidProtocolBufferException e) {
            if (sequence) {
                stats.add(SequenceExample.getDefaultInstance());
            } else {
                stats.add(Example.getDefaultInstance());
            }
        }
    }

    /** What statistics bytes must name to be merged with these settings. */
    String key() {
        return "epsilon="
                + epsilon
                + ";weight="
                + weightFeature
                + ";sequence="
                + sequence
                + ";roles="
                + roles;
    }

    /** {@code stats} as bytes. */
    byte[] toBytes(ExampleStatistics stats) throws IOException {
        String key = key();
        return StateBytes.chunked(
                out -> {
                    out.writeInt(FORMAT);
                    out.writeUTF(key);
                    stats.write(out);
                });
    }

    /**
     * The statistics of {@code bytes}, or null when they were kept with other settings (or by a
     * format this build does not read).
     *
     * @throws IOException when the bytes are damaged
     */
    ExampleStatistics fromBytes(byte[] bytes) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        if (in.readInt() != FORMAT || !in.readUTF().equals(key())) {
            return null;
        }
        ExampleStatistics stats = empty();
        stats.read(in, MAX_FEATURES);
        if (in.available() != 0) {
            throw new IOException("statistics bytes: " + in.available() + " bytes left over");
        }
        return stats;
    }

    /**
     * The statistics of committed shard {@code shard}, read back (a shard committed without its own
     * statistics: by an earlier version, or before {@code shards.statistics} was set).
     */
    ExampleStatistics readBack(Path shard, Compression compression) throws IOException {
        ExampleStatistics stats = empty();
        try (InputStream in = shard.getFileSystem().open(shard);
                TfRecordReader r =
                        TfRecordReader.open(
                                in,
                                shard.toString(),
                                TfRecordReadOptions.defaults().withCompression(compression))) {
            while (r.next()) {
                add(stats, r.copy());
            }
        }
        return stats;
    }
}
