package io.tfstream.parse.composite;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.Tensor;
import java.util.function.Function;

/**
 * Python's RaggedFeature composition ({@code _construct_tensors_for_composite_features} in {@code
 * parsing_config.py}, {@code validate=False}) over raw parse outputs, for callers holding the
 * kernel's raw ragged tensors (e.g. from TensorFlow itself). A batched value tensor ({@link
 * RaggedTensor} {@code [B, (V)]}, or {@code [B, (T), (V)]} / {@code [T, (V)]} for SequenceExample
 * feature lists) goes through {@code _add_batched_ragged_partition}; the 1-D values of a single
 * Example or single SequenceExample context through {@code _add_ragged_partition}.
 */
public final class RaggedComposition {
    private RaggedComposition() {}

    /**
     * Applies {@code spec}'s partitions to {@code values}; {@code partitions} gives the raw tensor
     * parsed for each partition key, in the same layout as {@code values}.
     *
     * @throws ExampleParseException when TensorFlow's composition would fail (e.g. a reshape for a
     *     uniform row length)
     */
    public static Tensor compose(
            String feature,
            RaggedFeature spec,
            Tensor values,
            Function<String, ? extends Tensor> partitions)
            throws ExampleParseException {
        return compose(feature, spec, values, partitions, ParseLimits.defaults());
    }

    /**
     * As {@link #compose(String, RaggedFeature, Tensor, Function)}, with {@code limits}' {@link
     * ParseLimits#maxRaggedRows()} bounding the rows a value_rowids partition may give a record.
     */
    public static Tensor compose(
            String feature,
            RaggedFeature spec,
            Tensor values,
            Function<String, ? extends Tensor> partitions,
            ParseLimits limits)
            throws ExampleParseException {
        if (values instanceof RaggedTensor rt) {
            return RaggedPartitions.batched(
                    feature, spec, rt, k -> (RaggedTensor) partitions.apply(k), limits);
        }
        return RaggedPartitions.single(
                feature, spec, values.values(), k -> partitions.apply(k).values(), limits);
    }
}
