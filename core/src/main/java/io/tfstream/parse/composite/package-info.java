/**
 * Python's composite layer, which runs after either parsing kernel: {@link
 * io.tfstream.parse.composite.SparseFeatureMerge} ({@code sparse_merge_impl}) and the ragged
 * partitions ({@code _add_batched_ragged_partition} / {@code _add_ragged_partition}), public
 * through {@link io.tfstream.parse.composite.RaggedComposition}. Internal.
 */
package io.tfstream.parse.composite;
