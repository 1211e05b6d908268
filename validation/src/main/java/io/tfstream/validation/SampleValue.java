package io.tfstream.validation;

/**
 * An offending value with how often it occurred, as alerts show it.
 *
 * @param value the value, C-escaped as TFDV quotes it ({@link TfdvFormat#cEscape})
 */
public record SampleValue(String value, long count) {}
