package io.tfstream.text;

/**
 * Input quoted in a message, cut to a fixed length where the message is built: a refusal of a 10 MB
 * number must not become a 10 MB message (in logs, dead-letter headers, alerts).
 */
public final class Quoted {
    /** Characters of input a message quotes at most. */
    public static final int MAX_CHARS = 64;

    /** Characters of a whole message that may quote input, at most. */
    public static final int MAX_MESSAGE_CHARS = 1024;

    private Quoted() {}

    /**
     * {@code s} itself up to {@link #MAX_CHARS} characters, else its first ones followed by how
     * long it was; never splits a surrogate pair.
     */
    public static String cut(String s) {
        return cut(s, MAX_CHARS);
    }

    /**
     * {@code s} itself up to {@code maxChars} characters, else its first ones followed by how long
     * it was: for whole messages that may quote input (a parser's error, an echoed argument).
     */
    public static String cut(String s, int maxChars) {
        if (s == null || s.length() <= maxChars) {
            return s;
        }
        int end = maxChars;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "… (" + s.length() + " characters)";
    }

    /**
     * The error for a refused setting: "invalid value 'v' for NAME: expected ...", {@code value}
     * cut as {@link #cut(String)} cuts it.
     */
    public static IllegalArgumentException invalidValue(
            Object value, String name, String expected) {
        return new IllegalArgumentException(
                "invalid value '"
                        + cut(String.valueOf(value))
                        + "' for "
                        + name
                        + ": expected "
                        + expected);
    }
}
