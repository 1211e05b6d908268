package io.tfstream.convert;

import io.tfstream.parse.FeatureSink;

/**
 * Turns one input record into a serialized {@code tf.train.Example} holding the schema's features
 * only, or feeds its values to a {@link FeatureSink} (the parser's columns) without writing the
 * Example. Not thread-safe: one per thread, reused for every record.
 */
public interface ExampleConverter {
    /** The Example of {@code in[off, off + len)}; the returned array is the caller's. */
    byte[] convert(byte[] in, int off, int len) throws ConversionException;

    /**
     * Resets {@code sink} and gives it the features of {@code in[off, off + len)} by slot ({@link
     * ConvertFeatures}), as {@link #convert} would write them; on an exception the sink holds part
     * of the record.
     */
    void convertInto(byte[] in, int off, int len, FeatureSink sink) throws ConversionException;

    /** Fields of the last converted record that name no schema feature and were ignored. */
    int ignoredFields();
}
