package io.tfstream.parse;

/** Why a record was rejected; a stable reason code for dead-letter output and metrics. */
public enum ParseErrorKind {
    /** The bytes are not a well-formed Example/SequenceExample for TensorFlow's fast parser. */
    MALFORMED,
    /** A requested feature has an unknown kind byte ({@code Unsupported datatype.}). */
    UNSUPPORTED_KIND,
    /** A requested feature holds another value type than the spec's dtype. */
    DTYPE_MISMATCH,
    /** A requested feature holds the wrong number of values for its shape. */
    SHAPE_MISMATCH,
    /** A required feature (no default) is missing. */
    REQUIRED_MISSING,
    /** A record exceeds one of the {@link ParseLimits}. */
    LIMIT_EXCEEDED,
    /** A composite feature (SparseFeature, ragged partitions) is inconsistent across the batch. */
    INCONSISTENT_BATCH,
    /**
     * A JSON or Avro record that does not convert to the schema's Example ({@link
     * InputRejectedException}).
     */
    CONVERSION
}
