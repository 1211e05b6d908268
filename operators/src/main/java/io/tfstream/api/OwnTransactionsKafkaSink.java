package io.tfstream.api;

import io.tfstream.operators.compat.KafkaSinkLine;
import io.tfstream.operators.compat.LineSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaSink;
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
 * <p>The connector's writer state and committables are typed {@code Object} here: the 1.20 line's
 * connector keeps their classes package-private.
 *
 * @param <T> the records' type
 */
@PublicEvolving
@SuppressWarnings("try") // the committer's close() is Flink's AutoCloseable contract
public final class OwnTransactionsKafkaSink<T>
        implements LineSink<T>,
                SupportsWriterState<T, Object>,
                SupportsCommitter<Object>,
                SupportsPostCommitTopology<Object> {
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
    public StatefulSinkWriter<T, Object> restoreWriter(
            WriterInitContext context, Collection<Object> recoveredState) throws IOException {
        List<Object> own = new ArrayList<>();
        for (Object s : recoveredState) {
            if (prefix.equals(KafkaSinkLine.transactionalIdPrefix(s))) {
                own.add(s);
            }
        }
        return stateful().restoreWriter(context, own);
    }

    @Override
    public SimpleVersionedSerializer<Object> getWriterStateSerializer() {
        return stateful().getWriterStateSerializer();
    }

    @Override
    public Committer<Object> createCommitter(CommitterInitContext context) throws IOException {
        Committer<Object> committer = committing().createCommitter(context);
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<Object>> requests)
                    throws IOException, InterruptedException {
                List<CommitRequest<Object>> own = new ArrayList<>();
                for (CommitRequest<Object> r : requests) {
                    if (owns(prefix, KafkaSinkLine.transactionalId(r.getCommittable()))) {
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
    public SimpleVersionedSerializer<Object> getCommittableSerializer() {
        return committing().getCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<Object>> committer) {
        KafkaSinkLine.addPostCommitTopology(sink, committer);
    }

    @SuppressWarnings("unchecked") // the connector's writer state, whatever its class
    private SupportsWriterState<T, Object> stateful() {
        return (SupportsWriterState<T, Object>) (Object) sink;
    }

    @SuppressWarnings("unchecked") // the connector's committables, whatever their class
    private SupportsCommitter<Object> committing() {
        return (SupportsCommitter<Object>) (Object) sink;
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
