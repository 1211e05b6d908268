package io.tfstream.bench.operators;

import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.BatchTriggers;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.json.SpecJsonWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

/** What the operator benchmarks share: the settings, the harness, the source records. */
final class OperatorBench {
    private OperatorBench() {}

    /** Settings whose batches close exactly at {@code batch} records. */
    static ParseSettings settings(ExampleProfile profile, int batch) {
        return new ParseSettings(
                SpecJsonWriter.write(profile.spec()).getBytes(StandardCharsets.UTF_8),
                "spec.json",
                false,
                ParseLimits.defaults(),
                new BatchTriggers(batch, 1L << 40, Duration.ofHours(1)),
                EventTimeSettings.kafkaTimestamp(),
                DeadLetterGuard.off());
    }

    /** An opened batch-and-parse operator in Flink's test harness. */
    static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(ParseSettings s)
            throws Exception {
        OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h =
                new OneInputStreamOperatorTestHarness<>(
                        new BatchParseOperator(s), SourceRecordSerializer.INSTANCE);
        h.setup(SourceRecordSerializer.INSTANCE);
        h.open();
        return h;
    }

    /** The records as Kafka source records over 3 partitions. */
    static SourceRecord[] sourceRecords(List<byte[]> records) {
        SourceRecord[] out = new SourceRecord[records.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = SourceRecord.of(records.get(i), "in", i % 3, i, 1_700_000_000_000L + i);
        }
        return out;
    }

    /** One batch through the operator: every record in, the output cleared; returns its size. */
    static int run(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h, SourceRecord[] in)
            throws Exception {
        for (int i = 0; i < in.length; i++) {
            h.processElement(in[i], in[i].timestamp());
        }
        int n = h.getOutput().size();
        h.getOutput().clear();
        return n;
    }
}
