package io.tfstream.api.model;

import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * One input record as it came from Kafka: value and key bytes, headers, and where it came from
 * (topic, partition, offset, Kafka timestamp); or from a TFRecord file ({@link #fromFile}: the file
 * as topic, partition {@link #FILE_PARTITION}, the record's byte offset in the uncompressed record
 * stream as offset, the file's modification time as timestamp). A record converted from JSON or
 * Avro ({@link #withConvertedValue}) keeps its {@link #original() original bytes}, which its dead
 * letters carry instead of the converted Example. Immutable; the arrays are never changed after
 * construction, so Flink may hand the same instance to chained operators.
 */
@PublicEvolving
public final class SourceRecord {
    /** The partition of every record read from a file. */
    public static final int FILE_PARTITION = -1;

    private static final String[] NO_KEYS = new String[0];
    private static final byte[][] NO_VALUES = new byte[0][];

    private final byte[] value;
    private final byte[] key;
    private final String[] headerKeys;
    private final byte[][] headerValues;
    private final String topic;
    private final int partition;
    private final long offset;
    private final long timestamp;
    private final byte[] original;
    private final String schemaFingerprint;

    public SourceRecord(
            byte[] value,
            byte[] key,
            String[] headerKeys,
            byte[][] headerValues,
            String topic,
            int partition,
            long offset,
            long timestamp) {
        this(value, key, headerKeys, headerValues, topic, partition, offset, timestamp, null, null);
    }

    /**
     * A record; {@code schemaFingerprint} is the fingerprint of the schema that accepted it, set by
     * the parse when the schema may change while the job runs ({@code schema.update: poll}), else
     * null.
     */
    public SourceRecord(
            byte[] value,
            byte[] key,
            String[] headerKeys,
            byte[][] headerValues,
            String topic,
            int partition,
            long offset,
            long timestamp,
            byte[] original,
            String schemaFingerprint) {
        this.value = Objects.requireNonNull(value, "value");
        this.key = key;
        this.headerKeys = headerKeys == null ? NO_KEYS : headerKeys;
        this.headerValues = headerValues == null ? NO_VALUES : headerValues;
        if (this.headerKeys.length != this.headerValues.length) {
            throw new IllegalArgumentException(
                    this.headerKeys.length
                            + " header keys but "
                            + this.headerValues.length
                            + " values");
        }
        this.topic = Objects.requireNonNull(topic, "topic");
        this.partition = partition;
        this.offset = offset;
        this.timestamp = timestamp;
        this.original = original;
        this.schemaFingerprint = schemaFingerprint;
    }

    /** This record with header {@code name} = {@code value} appended (a header may repeat). */
    public SourceRecord withHeader(String name, byte[] headerValue) {
        int n = headerKeys.length;
        String[] keys = Arrays.copyOf(headerKeys, n + 1);
        byte[][] values = Arrays.copyOf(headerValues, n + 1);
        keys[n] = Objects.requireNonNull(name, "name");
        values[n] = Objects.requireNonNull(headerValue, "headerValue");
        return copy(value, keys, values, original, schemaFingerprint);
    }

    /** This record with {@code newValue} as its value; the {@link #original()} stays. */
    public SourceRecord withValue(byte[] newValue) {
        return copy(newValue, headerKeys, headerValues, original, schemaFingerprint);
    }

    /**
     * This record as accepted by the schema of fingerprint {@code fingerprint} (the shard sink
     * keeps a shard to one schema).
     */
    public SourceRecord withSchemaFingerprint(String fingerprint) {
        return copy(value, headerKeys, headerValues, original, fingerprint);
    }

    /**
     * This record with {@code example}, converted from its value, as its value: the value before
     * conversion becomes {@link #original()} (the first one, if converted twice).
     */
    public SourceRecord withConvertedValue(byte[] example) {
        return copy(
                example,
                headerKeys,
                headerValues,
                original == null ? value : original,
                schemaFingerprint);
    }

    /**
     * The record as it arrived: the {@link #original()} as value when converted, else this record.
     */
    public SourceRecord asArrived() {
        return original == null ? this : copy(original, headerKeys, headerValues, null, null);
    }

    /** This record's key and origin with the given value, headers, original and fingerprint. */
    private SourceRecord copy(
            byte[] newValue,
            String[] keys,
            byte[][] values,
            byte[] newOriginal,
            String fingerprint) {
        return new SourceRecord(
                newValue,
                key,
                keys,
                values,
                topic,
                partition,
                offset,
                timestamp,
                newOriginal,
                fingerprint);
    }

    /** A record without key and headers. */
    public static SourceRecord of(byte[] value, String topic, int partition, long offset, long ts) {
        return new SourceRecord(value, null, null, null, topic, partition, offset, ts);
    }

    /**
     * A record of TFRecord file {@code file} at byte offset {@code byteOffset} of its uncompressed
     * record stream; {@code modified} is the file's modification time (epoch millis).
     */
    public static SourceRecord fromFile(
            byte[] value,
            String[] headerKeys,
            byte[][] headerValues,
            String file,
            long byteOffset,
            long modified) {
        return new SourceRecord(
                value, null, headerKeys, headerValues, file, FILE_PARTITION, byteOffset, modified);
    }

    /** Whether the record was read from a file (then {@link #topic()} is the file's path). */
    public boolean fromFile() {
        return partition == FILE_PARTITION;
    }

    /** The value of the last header named {@code name}, or null. */
    public byte[] lastHeader(String name) {
        for (int i = headerKeys.length - 1; i >= 0; i--) {
            if (headerKeys[i].equals(name)) {
                return headerValues[i];
            }
        }
        return null;
    }

    /** The serialized record; a Kafka tombstone (null value) arrives as an empty array. */
    public byte[] value() {
        return value;
    }

    /** The value before conversion from JSON or Avro, or null when the record was not converted. */
    public byte[] original() {
        return original;
    }

    /** The fingerprint of the schema that accepted the record, or null (see the constructor). */
    public String schemaFingerprint() {
        return schemaFingerprint;
    }

    /** The Kafka key, or null. */
    public byte[] key() {
        return key;
    }

    public int headerCount() {
        return headerKeys.length;
    }

    public String headerKey(int i) {
        return headerKeys[i];
    }

    /** The value of header {@code i}; may be null (Kafka allows null header values). */
    public byte[] headerValue(int i) {
        return headerValues[i];
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    /** The Kafka record timestamp (epoch millis), or -1 when the record has none. */
    public long timestamp() {
        return timestamp;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SourceRecord r)) {
            return false;
        }
        return partition == r.partition
                && offset == r.offset
                && timestamp == r.timestamp
                && topic.equals(r.topic)
                && Arrays.equals(value, r.value)
                && Arrays.equals(key, r.key)
                && Arrays.equals(original, r.original)
                && Objects.equals(schemaFingerprint, r.schemaFingerprint)
                && Arrays.equals(headerKeys, r.headerKeys)
                && Arrays.deepEquals(headerValues, r.headerValues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset);
    }

    @Override
    public String toString() {
        return topic
                + "/"
                + partition
                + "@"
                + offset
                + " ("
                + value.length
                + " bytes"
                + (original == null ? "" : ", converted from " + original.length)
                + ")";
    }
}
