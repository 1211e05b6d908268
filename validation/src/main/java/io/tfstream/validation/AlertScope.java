package io.tfstream.validation;

/** The tier that raised an alert (§4.4 {@code scope}). */
public enum AlertScope {
    RECORD,
    WINDOW,
    DRIFT,
    SKEW,
    DATASET,
    SCHEMA
}
