package io.tfstream.api;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * An exactly-once {@link KafkaSink} that leaves the transactions of another transactional-id prefix
 * alone after a restore: for a second job started from the savepoint of a job that keeps running
 * (blue/green). Restored as it is, the Kafka connector's sink takes the prefix in the savepoint
 * over, as if the job had been renamed: its writers abort that prefix's open transactions (the
 * running job's producers are fenced, and a transaction it had pre-committed is lost) and its
 * committer commits that prefix's pending ones. Here the writers restore only the state written
 * under their own prefix, and the committer signals other prefixes' committables as done without
 * touching them: the job that owns them commits them itself.
 *
 * @param <T> the records' type
 */
@PublicEvolving
@SuppressWarnings("try") // the committer's close() is Flink's AutoCloseable contract
public final class OwnTransactionsKafkaSink<T>
        implements Sink<T>,
                SupportsWriterState<T, KafkaWriterState>,
                SupportsCommitter<KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable> {
    private static final long serialVersionUID = 1L;

    private final KafkaSink<T> sink;
    private final String prefix;

    private OwnTransactionsKafkaSink(KafkaSink<T> sink, String transactionalIdPrefix) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.prefix = Objects.requireNonNull(transactionalIdPrefix, "transactionalIdPrefix");
    }

    /** {@code sink}, built with {@code transactionalIdPrefix}, owning only that prefix. */
    public static <T> OwnTransactionsKafkaSink<T> of(
            KafkaSink<T> sink, String transactionalIdPrefix) {
        return new OwnTransactionsKafkaSink<>(sink, transactionalIdPrefix);
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        return sink.createWriter(context);
    }

    @Override
    public StatefulSinkWriter<T, KafkaWriterState> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) {
        List<KafkaWriterState> own = new ArrayList<>();
        for (KafkaWriterState s : recoveredState) {
            if (prefix.equals(s.getTransactionalIdPrefix())) {
                own.add(s);
            }
        }
        return sink.restoreWriter(context, own);
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return sink.getWriterStateSerializer();
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context)
            throws IOException {
        Committer<KafkaCommittable> committer = sink.createCommitter(context);
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<KafkaCommittable>> requests)
                    throws IOException, InterruptedException {
                List<CommitRequest<KafkaCommittable>> own = new ArrayList<>();
                for (CommitRequest<KafkaCommittable> r : requests) {
                    if (owns(prefix, r.getCommittable().getTransactionalId())) {
                        own.add(r);
                    } else {
                        r.signalAlreadyCommitted(); // its own job commits it
                    }
                }
                if (!own.isEmpty()) {
                    committer.commit(own);
                }
            }

            @Override
            public void close() throws Exception {
                committer.close();
            }
        };
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return sink.getCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committer) {
        sink.addPostCommitTopology(committer);
    }

    /**
     * Whether transactional id {@code id} is one of prefix {@code prefix}'s: the connector names
     * them {@code <prefix>-<subtask>-<checkpoint id>}.
     */
    static boolean owns(String prefix, String id) {
        return id != null
                && id.startsWith(prefix + "-")
                && id.substring(prefix.length() + 1).matches("\\d+-\\d+");
    }
}
