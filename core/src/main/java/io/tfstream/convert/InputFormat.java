package io.tfstream.convert;

import org.apache.flink.annotation.PublicEvolving;

/** What an input record holds: a serialized Example (as the schema says), JSON, or Avro binary. */
@PublicEvolving
public enum InputFormat {
    /** A serialized {@code tf.train.Example} or {@code SequenceExample}: no conversion. */
    EXAMPLE,
    /** One UTF-8 JSON object per record, converted by {@link JsonToExample}. */
    JSON,
    /** Avro binary (optionally with the Confluent framing), converted by {@link AvroToExample}. */
    AVRO
}
