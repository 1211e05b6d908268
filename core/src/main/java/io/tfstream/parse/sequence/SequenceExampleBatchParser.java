package io.tfstream.parse.sequence;

import static io.tfstream.parse.sequence.SequenceExampleScanner.CONTEXT;
import static io.tfstream.parse.sequence.SequenceExampleScanner.LISTS;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.LenientRetry;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.ParseLimitException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.composite.RaggedComposition;
import io.tfstream.parse.sequence.SequenceParsePlan.Key;
import io.tfstream.parse.sequence.SequenceParsePlan.Kind;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Parses serialized {@code tensorflow.SequenceExample}s as {@code tf.io.parse_sequence_example} (a
 * batch) and {@code tf.io.parse_single_sequence_example} (one record, no batch dimension) do: the
 * kernel {@code ParseSequenceExampleV2}, i.e. {@code FastParseSequenceExample} in {@code
 * tensorflow/core/util/example_proto_fast_parsing.cc}, followed by Python's assembly of ragged
 * outputs. Wire rules, outputs, padding, lengths and error texts are TensorFlow's; the first error
 * in TensorFlow's order of checks is reported. Where two features of one batch are both invalid in
 * the counting pass, TensorFlow's choice depends on hash order; this parser reports the first in op
 * key order.
 *
 * <p>Instances keep buffers from call to call and are not thread-safe; build one per thread.
 */
public final class SequenceExampleBatchParser {
    private final SequenceFeatureSpecs specs;
    private final SequenceParsePlan plan;
    private final SequenceBatchState state;
    private final long[][] lengths = new long[2][];
    private final long[] rows;
    private final SequenceOnePass onePass;
    private boolean onePassOn = true;

    /** Batches the one-pass path parsed (for tests). */
    int onePassBatches;

    private SequenceExampleBatchParser(SequenceFeatureSpecs specs, ParseLimits limits) {
        this.specs = specs;
        this.plan = SequenceParsePlan.of(specs);
        this.state =
                new SequenceBatchState(
                        new SequenceExampleScanner(names(plan.context), names(plan.featureLists)),
                        limits);
        lengths[CONTEXT] = new long[plan.context.size()];
        lengths[LISTS] = new long[plan.featureLists.size()];
        rows = new long[plan.featureLists.size()];
        onePass = new SequenceOnePass(state.scanner, plan, limits);
    }

    /**
     * A parser for {@code specs}; throws {@link IllegalArgumentException} with Python's text for
     * specs {@code parse_sequence_example} rejects.
     */
    public static SequenceExampleBatchParser create(
            SequenceFeatureSpecs specs, ParseLimits limits) {
        return new SequenceExampleBatchParser(
                Objects.requireNonNull(specs, "specs"), Objects.requireNonNull(limits, "limits"));
    }

    public SequenceFeatureSpecs specs() {
        return specs;
    }

    /** Tests: whether batches may take the one-pass path (on by default). */
    void onePass(boolean on) {
        onePassOn = on;
    }

    /** {@code parse_sequence_example(records)}: outputs with a leading batch dimension. */
    public ParsedSequenceBatch parse(SerializedRecords records) throws ExampleParseException {
        if (onePassOn && onePass.parse(records)) {
            onePassBatches++;
            return onePassBatch(records.size());
        }
        state.startBatch(records);
        for (int i = 0; i < records.size(); i++) {
            scan(i, records.buffer(i), records.offset(i), records.length(i));
        }
        return assemble();
    }

    /**
     * Parses every record that TensorFlow would accept on its own ({@code
     * parse_sequence_example([record])}) and reports each rejected record to {@code rejected}, with
     * its index in {@code records} and TensorFlow's message for it; the batch holds the accepted
     * rows in order ({@link ParsedSequenceBatch#recordIndex(int)}). The same contract as {@link
     * ExampleBatchParser#parseLenient}. A batch without bad records is parsed once; the kernel
     * reports errors per batch, so a batch with one is parsed again record by record.
     */
    public ParsedSequenceBatch parseLenient(
            SerializedRecords records, Consumer<ExampleParseException> rejected) {
        try {
            return parse(records);
        } catch (ExampleParseException whole) {
            int n = records.size();
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return LenientRetry.retry(
                    this::parseOrEmpty, ParsedSequenceBatch::withRows, records, all, n, rejected);
        }
    }

    /**
     * A lenient parse that rejected every record gives the kernel's outputs for zero records, or no
     * tensors at all where the kernel refuses zero records.
     */
    private ParsedSequenceBatch parseOrEmpty(SerializedRecords records)
            throws ExampleParseException {
        if (records.size() > 0) {
            return parse(records);
        }
        try {
            return parse(records);
        } catch (ExampleParseException e) {
            return new ParsedSequenceBatch(0, Map.of(), Map.of(), Map.of());
        }
    }

    /** {@code parse_single_sequence_example(buf[off, off+len))} without a name. */
    public ParsedSequenceBatch parseSingle(byte[] buf, int off, int len)
            throws ExampleParseException {
        return parseSingle(buf, off, len, null);
    }

    /**
     * {@code parse_single_sequence_example} of one record: no batch dimension, a context ragged
     * feature is a 1-D dense tensor, a ragged feature list is {@code [T, (V)]}, lengths are
     * scalars. {@code name} plays the role of {@code example_name} (null: {@code <unknown>}).
     */
    public ParsedSequenceBatch parseSingle(byte[] buf, int off, int len, String name)
            throws ExampleParseException {
        Objects.checkFromIndexSize(off, len, buf.length);
        state.startSingle(name);
        scan(0, buf, off, len);
        return assemble();
    }

    private void scan(int index, byte[] buf, int off, int len) throws ExampleParseException {
        ParseLimits limits = state.limits;
        if (len > limits.maxRecordBytes()) {
            throw new ParseLimitException(
                    index,
                    null,
                    "maxRecordBytes",
                    "record "
                            + index
                            + " has "
                            + len
                            + " bytes, exceeds maxRecordBytes ("
                            + limits.maxRecordBytes()
                            + ")");
        }
        SequenceExampleScanner s = state.scanner;
        if (!s.scan(index, buf, off, len)) {
            throw SequenceBatchState.error(
                    ParseErrorKind.MALFORMED,
                    index,
                    null,
                    "Invalid protocol message input, example id: " + state.name(index));
        }
        if (s.totalEntries > limits.maxFeaturesPerExample()) {
            throw new ParseLimitException(
                    index,
                    null,
                    "maxFeaturesPerExample",
                    "record "
                            + index
                            + " has "
                            + s.totalEntries
                            + " features, exceeds maxFeaturesPerExample ("
                            + limits.maxFeaturesPerExample()
                            + ")");
        }
    }

    private ParsedSequenceBatch assemble() throws ExampleParseException {
        SequenceCounter.countContext(state, plan.context, lengths[CONTEXT]);
        SequenceCounter.countLists(state, plan.featureLists, lengths[LISTS], rows);
        Map<String, Tensor> ctx = new TreeMap<>();
        for (int k = 0; k < plan.context.size(); k++) {
            Key key = plan.context.get(k);
            long n = lengths[CONTEXT][k];
            if (key.kind == Kind.DENSE) {
                ctx.put(key.name, SequenceContextAssembler.dense(state, k, key, n));
            } else if (key.kind == Kind.SPARSE) {
                ctx.put(key.name, SequenceContextAssembler.sparse(state, k, key, n));
            } else {
                ctx.put(key.name, SequenceContextAssembler.ragged(state, k, key, n));
            }
        }
        Map<String, Tensor> lists = new TreeMap<>();
        Map<String, DenseTensor> listLengths = new TreeMap<>();
        for (int k = 0; k < plan.featureLists.size(); k++) {
            Key key = plan.featureLists.get(k);
            long n = lengths[LISTS][k];
            if (key.kind == Kind.DENSE) {
                DenseTensor[] out = SequenceListAssembler.dense(state, k, key, n);
                lists.put(key.name, out[0]);
                listLengths.put(key.name, out[1]);
            } else if (key.kind == Kind.SPARSE) {
                lists.put(key.name, SequenceListAssembler.sparse(state, k, key, n));
            } else {
                lists.put(key.name, SequenceListAssembler.ragged(state, k, key, n, rows[k]));
            }
        }
        return batch(state.batch ? state.records : -1, ctx, lists, listLengths);
    }

    /** The tensors of a batch the one-pass path decoded. */
    private ParsedSequenceBatch onePassBatch(int b) throws ExampleParseException {
        Map<String, Tensor> ctx = new TreeMap<>();
        for (SequenceColumn col : onePass.context) {
            ctx.put(col.key.name, SequenceColumnTensors.context(col, b));
        }
        Map<String, Tensor> lists = new TreeMap<>();
        Map<String, DenseTensor> listLengths = new TreeMap<>();
        for (SequenceColumn col : onePass.lists) {
            Key key = col.key;
            if (key.kind == Kind.DENSE) {
                DenseTensor[] out = SequenceColumnTensors.denseList(col, b);
                lists.put(key.name, out[0]);
                listLengths.put(key.name, out[1]);
            } else if (key.kind == Kind.SPARSE) {
                lists.put(key.name, SequenceColumnTensors.sparseList(col, b));
            } else {
                lists.put(key.name, SequenceColumnTensors.raggedList(col, b));
            }
        }
        return batch(b, ctx, lists, listLengths);
    }

    private ParsedSequenceBatch batch(
            int records,
            Map<String, Tensor> ctx,
            Map<String, Tensor> lists,
            Map<String, DenseTensor> listLengths)
            throws ExampleParseException {
        return new ParsedSequenceBatch(
                records,
                outputs(plan.contextOutputs, plan.contextComposites, ctx, state.limits),
                outputs(plan.featureListOutputs, plan.featureListComposites, lists, state.limits),
                listLengths);
    }

    /**
     * The user's outputs: raw tensors, or for a RaggedFeature with partitions the composition of
     * Python's {@code _construct_tensors_for_composite_features}: a batch (and a single record's
     * feature list, whose steps play the batch) through {@code _add_batched_ragged_partition}, a
     * single record's context feature through {@code _add_ragged_partition}.
     */
    private static Map<String, Tensor> outputs(
            Map<String, String> names,
            Map<String, RaggedFeature> composites,
            Map<String, Tensor> raw,
            ParseLimits limits)
            throws ExampleParseException {
        Map<String, Tensor> out = new TreeMap<>();
        for (Map.Entry<String, String> e : names.entrySet()) {
            String name = e.getKey();
            Tensor values = raw.get(e.getValue());
            RaggedFeature spec = composites.get(name);
            out.put(
                    name,
                    spec == null
                            ? values
                            : RaggedComposition.compose(name, spec, values, raw::get, limits));
        }
        return out;
    }

    private static List<String> names(List<Key> keys) {
        List<String> n = new ArrayList<>(keys.size());
        for (Key k : keys) {
            n.add(k.name);
        }
        return n;
    }
}
