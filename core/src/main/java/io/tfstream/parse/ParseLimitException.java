package io.tfstream.parse;

/**
 * A record exceeds a {@link ParseLimits} setting. The message names the value, the limit and the
 * setting, e.g. {@code record 3: feature 'x' has 70000 values, exceeds maxValuesPerFeature
 * (65536)}.
 */
public final class ParseLimitException extends ExampleParseException {
    private static final long serialVersionUID = 1L;

    private final String setting;

    public ParseLimitException(int recordIndex, String featureKey, String setting, String message) {
        super(ParseErrorKind.LIMIT_EXCEEDED, recordIndex, featureKey, message);
        this.setting = setting;
    }

    /** The name of the {@link ParseLimits} component that was exceeded. */
    public String setting() {
        return setting;
    }

    @Override
    public String code() {
        return "RESOURCE_EXHAUSTED";
    }
}
