package io.tfstream.validation;

/**
 * Where a record came from, supplied by the caller and opaque to validation (e.g. Kafka topic,
 * partition and offset). Mutable so that one instance can be refilled per record without
 * allocation; roll-ups copy the fields they keep.
 */
public final class RecordRef {
    public String source = "";
    public int partition;
    public long offset;
    public long eventTime;

    public RecordRef set(String source, int partition, long offset, long eventTime) {
        this.source = source;
        this.partition = partition;
        this.offset = offset;
        this.eventTime = eventTime;
        return this;
    }
}
