package io.tfstream.parse.sequence;

import static io.tfstream.parse.sequence.SequenceExampleScanner.CONTEXT;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.sequence.SequenceParsePlan.Key;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.util.List;

/**
 * Builds the context outputs of {@code ParseSequenceExampleV2} once the counting pass has run, as
 * {@code ParseContextDenseFeatures}, {@code ParseContextSparseFeatures} and {@code
 * ParseContextRaggedFeatures} in TensorFlow's {@code example_proto_fast_parsing.cc} do, with the
 * same error texts.
 */
final class SequenceContextAssembler {
    private SequenceContextAssembler() {}

    /**
     * A FixedLenFeature: {@code [B] + shape} (single: {@code shape}). {@code maxElements} is the
     * largest count over the default and the present values.
     */
    static DenseTensor dense(SequenceBatchState in, int k, Key key, long maxElements)
            throws ExampleParseException {
        if (maxElements != key.elements) {
            throw SequenceBatchState.error(
                    ParseErrorKind.SHAPE_MISMATCH,
                    -1,
                    key.name,
                    "Inconsistent max number of elements for feature "
                            + key.name
                            + ": expected "
                            + key.elements
                            + ", but found "
                            + maxElements);
        }
        int b = in.records;
        ValueSink sink =
                new ValueSink(key.dtype, SequenceBatchState.checkedSize(b * maxElements, key.name));
        for (int e = 0; e < b; e++) {
            long n = 0;
            if (!in.scanner.present(CONTEXT, k, e)) {
                if (key.defaultValue == null) {
                    throw SequenceBatchState.error(
                            ParseErrorKind.REQUIRED_MISSING,
                            e,
                            key.name,
                            "Feature: "
                                    + key.name
                                    + " (data type: "
                                    + key.dtype.tfName()
                                    + ") is required but could not be found.");
                }
                sink.add(key.defaultValue);
                n = key.defaultValue.size();
            } else if (in.hasBytes(CONTEXT, k, e)) {
                in.open(CONTEXT, k, e);
                n = in.read(key.dtype, sink);
            }
            if (n != maxElements) {
                throw SequenceBatchState.error(
                        ParseErrorKind.SHAPE_MISMATCH,
                        e,
                        key.name,
                        "Unexpected number of elements in example " + in.name(e));
            }
        }
        long[] shape = new long[key.shape.length + (in.batch ? 1 : 0)];
        int d = 0;
        if (in.batch) {
            shape[d++] = b;
        }
        for (long s : key.shape) {
            shape[d++] = s;
        }
        return new DenseTensor(shape, sink.column());
    }

    /** A VarLenFeature: indices {@code [N, 2]}, dense_shape {@code [B, max]} (single: rank 1). */
    static SparseTensor sparse(SequenceBatchState in, int k, Key key, long total)
            throws ExampleParseException {
        int n = SequenceBatchState.checkedSize(total, key.name);
        int rank = in.batch ? 2 : 1;
        ValueSink sink = new ValueSink(key.dtype, n);
        long[] indices = new long[SequenceBatchState.checkedSize((long) n * rank, key.name)];
        int at = 0;
        long maxCols = 0;
        for (int e = 0; e < in.records; e++) {
            if (!in.hasBytes(CONTEXT, k, e)) {
                continue;
            }
            in.open(CONTEXT, k, e);
            int added = in.read(key.dtype, sink);
            if (added < 0 || sink.size() > n) {
                // Upstream would index past its buffers here (a bytes value that was counted
                // but cannot be read); report the inconsistency instead.
                throw unexpectedTotal(key, e);
            }
            maxCols = Math.max(maxCols, added);
            for (int i = 0; i < added; i++) {
                if (in.batch) {
                    indices[at++] = e;
                }
                indices[at++] = i;
            }
        }
        if (sink.size() != n) {
            throw unexpectedTotal(key, -1);
        }
        long[] shape = in.batch ? new long[] {in.records, maxCols} : new long[] {maxCols};
        return new SparseTensor(indices, sink.column(), shape);
    }

    /**
     * A RaggedFeature without partitions: values and row splits {@code [B + 1]}; a single record
     * gives the flat values as a dense 1-D tensor, as Python returns it.
     */
    static Tensor ragged(SequenceBatchState in, int k, Key key, long total)
            throws ExampleParseException {
        int n = SequenceBatchState.checkedSize(total, key.name);
        ValueSink sink = new ValueSink(key.dtype, n);
        long[] splits = new long[in.records + 1];
        boolean broken = false;
        for (int e = 0; e < in.records; e++) {
            if (in.hasBytes(CONTEXT, k, e)) {
                in.open(CONTEXT, k, e);
                broken |= in.read(key.dtype, sink) < 0;
            }
            splits[e + 1] = sink.size();
        }
        if (broken || sink.size() != n) {
            throw unexpectedTotal(key, -1);
        }
        Column values = sink.column();
        if (!in.batch) {
            return new DenseTensor(new long[] {n}, values);
        }
        return RaggedTensor.ofOwned(values, new long[] {n}, List.of(splits), key.splitsDtype);
    }

    private static ExampleParseException unexpectedTotal(Key key, int record) {
        return SequenceBatchState.error(
                ParseErrorKind.MALFORMED,
                record,
                key.name,
                "Unexpected total number of elements in feature " + key.name);
    }
}
