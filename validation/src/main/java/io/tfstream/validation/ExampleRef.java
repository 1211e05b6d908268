package io.tfstream.validation;

/** A kept reference to an offending record, as the caller supplied it ({@link RecordRef}). */
public record ExampleRef(String source, int partition, long offset, long eventTime) {}
