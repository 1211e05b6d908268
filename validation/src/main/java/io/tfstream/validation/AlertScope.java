package io.tfstream.validation;

/** The tier that raised an alert ({@code scope}, docs/validation.md#validation-tiers). */
public enum AlertScope {
    RECORD,
    WINDOW,
    DRIFT,
    SKEW,
    DATASET,
    SCHEMA
}
