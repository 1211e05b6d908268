package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter;
import org.junit.jupiter.api.Test;

/** The committer's shard metrics count visible shards only, after the commit went through. */
@SuppressWarnings("try")
class MeteredShardSinkTest {
    private record Pending(Path path, long size)
            implements InProgressFileWriter.PendingFileRecoverable {
        @Override
        public Path getPath() {
            return path;
        }

        @Override
        public long getSize() {
            return size;
        }
    }

    private record Request(FileSinkCommittable committable)
            implements Committer.CommitRequest<FileSinkCommittable> {
        @Override
        public FileSinkCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            throw new AssertionError(t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            throw new AssertionError(t);
        }

        @Override
        public void retryLater() {}

        @Override
        public void updateAndRetryLater(FileSinkCommittable c) {}

        @Override
        public void signalAlreadyCommitted() {}
    }

    /** A committer that records what it was asked to commit. */
    private static final class RecordingCommitter implements Committer<FileSinkCommittable> {
        final List<FileSinkCommittable> committed = new ArrayList<>();

        @Override
        public void commit(Collection<CommitRequest<FileSinkCommittable>> requests) {
            for (CommitRequest<FileSinkCommittable> r : requests) {
                committed.add(r.getCommittable());
            }
        }

        @Override
        public void close() {}
    }

    @Test
    void countsFinishedShardsAndTheirSizes() throws Exception {
        RecordingCommitter inner = new RecordingCommitter();
        MeteredShardSink.MeteredCommitter c =
                new MeteredShardSink.MeteredCommitter(inner, new UnregisteredMetricsGroup());
        List<Committer.CommitRequest<FileSinkCommittable>> requests =
                List.of(
                        new Request(
                                new FileSinkCommittable(
                                        "b",
                                        new Pending(
                                                new Path("/s/b/compacted-part-1-0.tfrecord"),
                                                100))),
                        new Request(
                                new FileSinkCommittable(
                                        "b", new Pending(new Path("/s/b/.part-1-0.tfrecord"), 40))),
                        new Request(
                                new FileSinkCommittable(
                                        "b",
                                        new Pending(
                                                new Path("/s/b/compacted-part-2-0.tfrecord"),
                                                300))));
        c.commit(requests);
        assertEquals(3, inner.committed.size());
        assertEquals(2, c.finished.getCount());
        assertEquals(400, c.finishedBytes.getCount());
        assertEquals(2, c.size.getCount());
        assertEquals(300, c.size.getStatistics().getMax());
    }
}
