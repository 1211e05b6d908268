package io.tfstream.operators.parse;

import io.tfstream.operators.source.SourceRecord;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The metadata of a batch's {@link TensorBatch}: the offset range of every source partition its
 * rows came from, and a {@code batch_id} derived from those ranges alone, so that the same input
 * records give the same id after a restart.
 */
final class BatchMetadata {
    private BatchMetadata() {}

    /**
     * Adds the source ranges of the records of rows {@code rows} to {@code b}; returns the batch id
     * those ranges give.
     */
    static String sources(
            TensorBatch.Builder b, List<SourceRecord> records, int[] recordOfRow, int rows) {
        Map<String, SourceRange.Builder> ranges = new TreeMap<>();
        for (int row = 0; row < rows; row++) {
            SourceRecord r = records.get(recordOfRow[row]);
            SourceRange.Builder range =
                    ranges.computeIfAbsent(
                            r.topic() + "\u0000" + r.partition(),
                            k ->
                                    SourceRange.newBuilder()
                                            .setTopic(r.topic())
                                            .setPartition(r.partition())
                                            .setFirstOffset(r.offset())
                                            .setLastOffset(r.offset()));
            range.setFirstOffset(Math.min(range.getFirstOffset(), r.offset()));
            range.setLastOffset(Math.max(range.getLastOffset(), r.offset()));
        }
        StringBuilder id = new StringBuilder();
        for (SourceRange.Builder r : ranges.values()) {
            b.addSources(r);
            id.append(r.getTopic())
                    .append('\u0000')
                    .append(r.getPartition())
                    .append('@')
                    .append(r.getFirstOffset())
                    .append('-')
                    .append(r.getLastOffset())
                    .append('\n');
        }
        return sha256(id.toString()).substring(0, 32);
    }

    private static String sha256(String s) {
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
