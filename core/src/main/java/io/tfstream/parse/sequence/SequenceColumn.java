package io.tfstream.parse.sequence;

import io.tfstream.parse.sequence.SequenceParsePlan.Key;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.util.Arrays;

/**
 * The values of one SequenceExample key over a batch, as the one-pass parser ({@link
 * SequenceOnePass}) decodes them: one growable column of the key's dtype, and per record the
 * cumulative value count (context) or step count (feature lists), per step the cumulative value
 * count. The index arrays are kept from batch to batch; the value column is handed over.
 */
final class SequenceColumn {
    final Key key;

    /** The dtype as an int the step loop tests: {@link #INT64}, {@link #FLOAT32} or bytes. */
    final int kind;

    static final int INT64 = 0;
    static final int FLOAT32 = 1;
    static final int BYTES = 2;

    Int64Buffer int64s;
    Float32Buffer floats;
    BytesBuffer bytes;

    /** Context: values up to the end of record {@code e} at {@code e + 1}; lists: steps. */
    int[] recordEnds = new int[1];

    /** Lists: values up to the end of step {@code s} at {@code s + 1}. */
    int[] stepEnds = new int[1];

    int steps;

    /** The last record this key had an entry in. */
    int seenRecord;

    private int valueHint = 64;
    private int bytesHint = 512;

    SequenceColumn(Key key) {
        this.key = key;
        this.kind =
                key.dtype == io.tfstream.spec.DType.INT64
                        ? INT64
                        : key.dtype == io.tfstream.spec.DType.FLOAT32 ? FLOAT32 : BYTES;
    }

    /**
     * Empties the column for a batch of {@code records}. A column whose values are copied into the
     * output ({@code kept}: a dense feature list, padded) keeps its buffer; the others get one
     * sized from the previous batch with some room, so that it hardly ever grows.
     */
    void start(int records, boolean kept) {
        switch (kind) {
            case INT64:
                if (kept && int64s != null) {
                    int64s.truncate(0);
                } else {
                    int64s = new Int64Buffer(valueHint);
                }
                break;
            case FLOAT32:
                if (kept && floats != null) {
                    floats.truncate(0);
                } else {
                    floats = new Float32Buffer(valueHint);
                }
                break;
            default:
                if (kept && bytes != null) {
                    bytes.truncate(0);
                } else {
                    bytes = new BytesBuffer(valueHint, bytesHint);
                }
        }
        if (recordEnds.length < records + 1) {
            recordEnds = new int[records + 1];
        }
        recordEnds[0] = 0;
        stepEnds[0] = 0;
        steps = 0;
        seenRecord = -1;
    }

    /** Ends a step: the column holds {@code size} values. */
    void endStep(int size) {
        if (steps + 1 == stepEnds.length) {
            stepEnds = Arrays.copyOf(stepEnds, stepEnds.length * 2 + 16);
        }
        stepEnds[++steps] = size;
    }

    /** Room for {@code n} more steps; returns the step-ends array to write them to. */
    int[] reserveSteps(int n) {
        if (steps + n + 1 >= stepEnds.length) {
            stepEnds = Arrays.copyOf(stepEnds, Math.max(steps + n + 2, stepEnds.length * 2));
        }
        return stepEnds;
    }

    int size() {
        return kind == INT64 ? int64s.size() : kind == FLOAT32 ? floats.size() : bytes.size();
    }

    /** Hands the values over and remembers their count to size the next batch's column. */
    Column finish() {
        valueHint = Math.max(64, size() + (size() >> 5));
        if (bytes != null) {
            int n = bytes.offsets()[bytes.size()];
            bytesHint = Math.max(512, n + (n >> 5));
        }
        return Column.of(key.dtype, int64s, floats, bytes);
    }
}
