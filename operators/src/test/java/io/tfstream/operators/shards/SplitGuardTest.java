package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.shards.TfxSplits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * {@link SplitGuard}: records with an int64 or bytes partition feature pass; those TFX would not
 * split go to the dead letters with reason {@code validation} and TFX's message, counted in {@code
 * tfstream.unsplitRecords}.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class SplitGuardTest {
    private final Map<String, Metric> metrics = new ConcurrentHashMap<>();

    private static SourceRecord record(int offset, Feature user) {
        Features.Builder f = Features.newBuilder();
        if (user != null) {
            f.putFeature("user", user);
        }
        byte[] value = Example.newBuilder().setFeatures(f).build().toByteArray();
        return SourceRecord.of(value, "t", 0, offset, 0);
    }

    @Test
    void recordsWithoutAUsablePartitionFeatureAreDeadLettered() throws Exception {
        SplitGuard guard = new SplitGuard(TfxSplits.parse("train:2,eval:1"), "user", false);
        try (var h = GuardHarness.open(guard, metrics, 0)) {
            h.processElement(
                    new StreamRecord<>(
                            record(
                                    1,
                                    Feature.newBuilder()
                                            .setInt64List(Int64List.newBuilder().addValue(7))
                                            .build()),
                            5));
            h.processElement(
                    new StreamRecord<>(
                            record(
                                    2,
                                    Feature.newBuilder()
                                            .setBytesList(
                                                    BytesList.newBuilder()
                                                            .addValue(ByteString.copyFromUtf8("u")))
                                            .build()),
                            5));
            h.processElement(new StreamRecord<>(record(3, null), 5));
            h.processElement(
                    new StreamRecord<>(
                            record(
                                    4,
                                    Feature.newBuilder()
                                            .setFloatList(FloatList.newBuilder().addValue(1f))
                                            .build()),
                            5));
            List<Long> passed = new ArrayList<>();
            h.extractOutputValues().forEach(r -> passed.add(r.offset()));
            assertEquals(List.of(1L, 2L), passed);
            List<DeadLetter> dead = new ArrayList<>();
            h.getSideOutput(DeadLetterOutput.TAG).forEach(r -> dead.add(r.getValue()));
            assertEquals(List.of(3L, 4L), dead.stream().map(d -> d.source().offset()).toList());
            assertEquals(DeadLetterReason.VALIDATION, dead.get(0).reason());
            assertEquals(
                    "shards.split-feature user: Feature name `user` does not exist.",
                    dead.get(0).error());
            assertEquals(
                    "shards.split-feature user: Only `bytes_list` and `int64_list` features are"
                            + " supported for partition.",
                    dead.get(1).error());
            assertEquals(
                    2,
                    ((Counter) metrics.get("tfstream." + SplitGuard.UNSPLIT_RECORDS)).getCount());
        }
    }
}
