package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** The Kafka key of a payload. */
@PublicEvolving
public enum PayloadKeyMode {
    /** No key: the producer spreads payloads over the topic's partitions. */
    NONE,
    /**
     * The first source partition of the batch as {@code <topic>-<partition>} (UTF-8): the payloads
     * of one source partition land in one output partition, in order.
     */
    SOURCE_PARTITION,
    /**
     * The grouping key of the batch's records ({@code EncodedTensorBatch#key}: the event-time
     * windows' {@code batch.key}): the payloads of one key land in one output partition. Payloads
     * without a grouping key have no key.
     */
    BATCH_KEY
}
