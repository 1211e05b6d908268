package io.tfstream.parse;

import io.tfstream.parse.example.ExampleBatchParser;

/**
 * Where a JSON or Avro converter puts one record's feature values, by slot (the converter's feature
 * numbering): an {@link ExampleBuilder} that writes the record as {@code tf.train.Example} bytes,
 * or the parser's columns directly ({@link ExampleBatchParser#parseLenient(SerializedRecords,
 * RecordDecoder, java.util.function.Consumer)}). A feature's values arrive together, right after
 * its {@link #start}.
 */
public interface FeatureSink {
    /** Starts a record: no feature present, nothing added. */
    void reset();

    /**
     * Marks {@code slot} present with an empty list; false when it already was (the same feature
     * twice in one record).
     */
    boolean start(int slot);

    void addInt64(int slot, long v);

    void addFloat(int slot, float v);

    /** Appends one bytes value {@code b[off, off + len)}. */
    void addBytes(int slot, byte[] b, int off, int len);
}
