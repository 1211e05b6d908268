package io.tfstream.operators.parse;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * The metadata of a batch's {@link TensorBatch}: the offset range of every source partition its
 * rows came from, and a {@code batch_id} derived from those ranges alone, so that the same input
 * records give the same id after a restart.
 */
final class BatchMetadata {
    private BatchMetadata() {}

    /**
     * Adds the source ranges of the records of rows {@code rows} to {@code b}, ordered by topic and
     * partition; returns the batch id those ranges give.
     */
    static String sources(
            TensorBatch.Builder b, List<SourceRecord> records, int[] recordOfRow, int rows) {
        // A batch spans few partitions: a short list searched linearly, no per-row allocation.
        List<Range> ranges = new ArrayList<>(4);
        Range last = null;
        for (int row = 0; row < rows; row++) {
            SourceRecord r = records.get(recordOfRow[row]);
            if (last == null || !last.holds(r)) {
                last = null;
                for (Range c : ranges) {
                    if (c.holds(r)) {
                        last = c;
                        break;
                    }
                }
                if (last == null) {
                    last = new Range(r.topic(), r.partition(), r.offset());
                    ranges.add(last);
                }
            }
            last.first = Math.min(last.first, r.offset());
            last.last = Math.max(last.last, r.offset());
        }
        ranges.sort(Comparator.comparing((Range x) -> x.topic).thenComparingInt(x -> x.partition));
        StringBuilder id = new StringBuilder();
        for (Range r : ranges) {
            b.addSources(
                    SourceRange.newBuilder()
                            .setTopic(r.topic)
                            .setPartition(r.partition)
                            .setFirstOffset(r.first)
                            .setLastOffset(r.last));
            id.append(r.topic)
                    .append('\u0000')
                    .append(r.partition)
                    .append('@')
                    .append(r.first)
                    .append('-')
                    .append(r.last)
                    .append('\n');
        }
        return sha256(id.toString()).substring(0, 32);
    }

    private static final class Range {
        final String topic;
        final int partition;
        long first;
        long last;

        Range(String topic, int partition, long offset) {
            this.topic = topic;
            this.partition = partition;
            this.first = offset;
            this.last = offset;
        }

        boolean holds(SourceRecord r) {
            return r.partition() == partition && r.topic().equals(topic);
        }
    }

    static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
