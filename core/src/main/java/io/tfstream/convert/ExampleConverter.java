package io.tfstream.convert;

/**
 * Turns one input record into a serialized {@code tf.train.Example} holding the schema's features
 * only. Not thread-safe: one per thread, reused for every record.
 */
public interface ExampleConverter {
    /** The Example of {@code in[off, off + len)}; the returned array is the caller's. */
    byte[] convert(byte[] in, int off, int len) throws ConversionException;

    /** Fields of the last converted record that name no schema feature and were ignored. */
    int ignoredFields();
}
