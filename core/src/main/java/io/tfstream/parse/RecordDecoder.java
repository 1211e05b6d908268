package io.tfstream.parse;

import io.tfstream.spec.DType;
import java.util.List;

/**
 * Reads records of another format (JSON, Avro) as the Examples they convert to, for {@link
 * ExampleBatchParser#parseLenient(SerializedRecords, RecordDecoder, java.util.function.Consumer)}:
 * the values go straight into the parser's columns, with no Example written in between. Not
 * thread-safe: one per parser.
 */
public interface RecordDecoder {
    /** The features the decoder writes, by slot; each one a key of the parse spec. */
    List<String> featureNames();

    /** The type of each slot's values, as {@link #featureNames()}. */
    List<DType> featureTypes();

    /**
     * Resets {@code sink} and gives it the features of {@code in[off, off + len)}; returns null, or
     * why the record does not convert (then the sink may hold part of it). The same input gives the
     * same values every time.
     */
    String decode(byte[] in, int off, int len, FeatureSink sink);

    /** Input fields of the last decoded record that name no feature and were ignored. */
    int ignoredFields();
}
