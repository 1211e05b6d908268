package io.tfstream.api;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.SourceRecord;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The records past the shard guards ({@link TfRecordShards#guards()}) and the dead letters of the
 * guards that dead-letter.
 */
@PublicEvolving
public final class GuardedRecords {
    private final DataStream<SourceRecord> records;
    private final List<DataStream<DeadLetter>> deadLetters;

    GuardedRecords(DataStream<SourceRecord> records, List<DataStream<DeadLetter>> deadLetters) {
        this.records = records;
        this.deadLetters = List.copyOf(deadLetters);
    }

    /** The records that passed every guard (the input itself without guards). */
    public DataStream<SourceRecord> records() {
        return records;
    }

    /** The guards' dead letters as one stream; empty when no guard dead-letters. */
    public Optional<DataStream<DeadLetter>> deadLetters() {
        if (deadLetters.isEmpty()) {
            return Optional.empty();
        }
        DataStream<DeadLetter> all = deadLetters.get(0);
        for (DataStream<DeadLetter> d : deadLetters.subList(1, deadLetters.size())) {
            all = all.union(d);
        }
        return Optional.of(all);
    }
}
