package io.tfstream.payload;

import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.proto.v1.TensorBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Cuts a parsed batch into {@code TensorBatch} messages that each fit a size limit (a Kafka
 * message): when the whole batch fits, it is one message from the one parse; otherwise its rows are
 * split into consecutive runs, each parsed again on its own so that every part is exactly {@code
 * parse_example} over its rows (a padded {@code FixedLenSequence} column or a sparse index cannot
 * be sliced out of the whole). A single record whose message alone is over the limit is reported
 * and left out.
 *
 * <p>Parts are numbered ({@code part}/{@code parts}) in row order; a batch that fits whole has both
 * at 0. The extra parse happens only for oversized batches, whose encoding dominates anyway.
 */
public final class TensorBatchSplitter {
    /**
     * Bytes reserved for {@code part} and {@code parts} (two varint fields, at most 6 bytes each).
     */
    private static final int PART_FIELDS = 12;

    /** Completes a part's message: adds metadata (sources, id, fingerprint) for its records. */
    @FunctionalInterface
    public interface Finisher {
        /**
         * The message of the rows of records {@code records[0..count)} (indexes into the batch),
         * from their encoded tensors.
         */
        TensorBatch.Builder finish(TensorBatch.Builder tensors, int[] records, int count);
    }

    /**
     * The messages and the records too large to fit any message.
     *
     * @param messages the parts, in row order, {@code part}/{@code parts} set when more than one
     * @param tooLarge indexes into the batch of the records left out
     * @param tooLargeBytes the size of each left-out record's message alone
     */
    public record Result(List<EncodedTensorBatch> messages, int[] tooLarge, int[] tooLargeBytes) {}

    private final LenientBatchParser parser;
    private final int maxBytes;

    /**
     * @param maxBytes the largest serialized message allowed
     */
    public TensorBatchSplitter(LenientBatchParser parser, int maxBytes) {
        if (maxBytes < 64) {
            throw new IllegalArgumentException("maxBytes must be at least 64, got " + maxBytes);
        }
        this.parser = Objects.requireNonNull(parser, "parser");
        this.maxBytes = maxBytes;
    }

    /** The largest serialized message allowed. */
    public int maxBytes() {
        return maxBytes;
    }

    /**
     * Messages for the parsed rows {@code whole} of {@code batch}: row {@code r} is record {@code
     * records[r]}, {@code count} rows.
     */
    public Result split(
            SerializedRecords batch,
            ParsedRows whole,
            int[] records,
            int count,
            Finisher finisher) {
        EncodedTensorBatch all = encode(whole, records, count, finisher);
        int size = all.serializedSize();
        if (size <= maxBytes) {
            return new Result(List.of(all), new int[0], new int[0]);
        }
        List<EncodedTensorBatch> parts = new ArrayList<>();
        IntList tooLarge = new IntList();
        IntList tooLargeBytes = new IntList();
        splitRun(batch, records, 0, count, size, finisher, parts, tooLarge, tooLargeBytes);
        List<EncodedTensorBatch> messages = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            EncodedTensorBatch p = parts.get(i);
            messages.add(
                    parts.size() == 1
                            ? p
                            : p.withMeta(
                                    p.meta().toBuilder()
                                            .setPart(i)
                                            .setParts(parts.size())
                                            .build()));
        }
        return new Result(messages, tooLarge.toArray(), tooLargeBytes.toArray());
    }

    private static EncodedTensorBatch encode(
            ParsedRows rows, int[] records, int count, Finisher finisher) {
        return new EncodedTensorBatch(
                TensorBatchWriter.write(rows),
                // The rows are in both halves (the same value): read without the tensors.
                finisher.finish(TensorBatch.newBuilder().setRows(rows.rows()), records, count)
                        .build());
    }

    /** Splits rows [from, to) whose message has {@code size} bytes into runs that fit. */
    private void splitRun(
            SerializedRecords batch,
            int[] records,
            int from,
            int to,
            int size,
            Finisher finisher,
            List<EncodedTensorBatch> parts,
            IntList tooLarge,
            IntList tooLargeBytes) {
        int rows = to - from;
        if (rows == 1) {
            tooLarge.add(records[from]);
            tooLargeBytes.add(size);
            return;
        }
        // Rows are assumed to be of similar size; a run that still does not fit is cut again.
        int pieces = (int) Math.min(rows, Math.max(2, ((long) size + maxBytes - 1) / maxBytes));
        for (int p = 0; p < pieces; p++) {
            int lo = from + (int) ((long) rows * p / pieces);
            int hi = from + (int) ((long) rows * (p + 1) / pieces);
            int[] pick = Arrays.copyOfRange(records, lo, hi);
            ParsedRows parsed =
                    parser.parseSubset(
                            batch,
                            pick,
                            pick.length,
                            e -> {
                                throw new IllegalStateException(
                                        "a record accepted in its batch was rejected alone: "
                                                + e.getMessage(),
                                        e);
                            });
            EncodedTensorBatch m = encode(parsed, pick, pick.length, finisher);
            int partSize = m.serializedSize();
            if (partSize + PART_FIELDS <= maxBytes) {
                parts.add(m);
            } else {
                splitRun(
                        batch,
                        records,
                        lo,
                        hi,
                        partSize + PART_FIELDS,
                        finisher,
                        parts,
                        tooLarge,
                        tooLargeBytes);
            }
        }
    }

    private static final class IntList {
        private int[] values = new int[4];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
