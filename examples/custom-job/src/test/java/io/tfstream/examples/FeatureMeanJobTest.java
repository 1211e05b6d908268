package io.tfstream.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tfstream.tfrecord.TfRecordWriter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;

/** {@link FeatureMeanJob} on a local MiniCluster, from TFRecord files to means and shards. */
@SuppressWarnings("try") // CloseableIterator.close() may throw InterruptedException
class FeatureMeanJobTest {
    private static final String SCHEMA =
            "feature {\n"
                    + "  name: \"x\"\n"
                    + "  type: FLOAT\n"
                    + "  presence { min_fraction: 1.0 }\n"
                    + "  shape { dim { size: 1 } }\n"
                    + "}\n";

    @Test
    void meansOfEveryBatchAndShardsOfEveryRecord(@TempDir Path dir) throws Exception {
        Path input = Files.createDirectories(dir.resolve("in"));
        int n = 250;
        try (OutputStream out = Files.newOutputStream(input.resolve("data.tfrecord"));
                TfRecordWriter w = TfRecordWriter.builder(out).build()) {
            for (int i = 0; i < n; i++) {
                w.write(example(i).toByteArray());
            }
        }
        Path schema =
                Files.writeString(dir.resolve("schema.pbtxt"), SCHEMA, StandardCharsets.UTF_8);
        Path shards = dir.resolve("shards");

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(200);
        List<BatchMean.Result> means = new ArrayList<>();
        try (CloseableIterator<BatchMean.Result> it =
                FeatureMeanJob.build(env, input.toString(), schema, shards.toString(), "x")
                        .collectAsync()) {
            env.execute("feature-mean");
            it.forEachRemaining(means::add);
        }

        // Every record in exactly one batch; the means, weighted by rows, give the sum 0..n-1.
        long rows = 0;
        double sum = 0;
        for (BatchMean.Result r : means) {
            rows += r.rows();
            sum += r.mean() * r.rows();
        }
        assertEquals(n, rows);
        assertEquals(n * (n - 1) / 2.0, sum, 1e-6);
        try (Stream<Path> files = Files.walk(shards)) {
            assertFalse(
                    files.filter(p -> p.getFileName().toString().endsWith(".tfrecord"))
                            .toList()
                            .isEmpty(),
                    "no finished shard under " + shards);
        }
    }

    private static Example example(float x) {
        return Example.newBuilder()
                .setFeatures(
                        Features.newBuilder()
                                .putFeature(
                                        "x",
                                        Feature.newBuilder()
                                                .setFloatList(FloatList.newBuilder().addValue(x))
                                                .build()))
                .build();
    }
}
