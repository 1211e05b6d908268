package io.tfstream.text;

/**
 * Input quoted in a message, cut to a fixed length where the message is built: a refusal of a 10 MB
 * number must not become a 10 MB message (in logs, dead-letter headers, alerts).
 */
public final class Quoted {
    /** Characters of input a message quotes at most. */
    public static final int MAX_CHARS = 64;

    private Quoted() {}

    /**
     * {@code s} itself up to {@link #MAX_CHARS} characters, else its first ones followed by how
     * long it was; never splits a surrogate pair.
     */
    public static String cut(String s) {
        if (s == null || s.length() <= MAX_CHARS) {
            return s;
        }
        int end = MAX_CHARS;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "… (" + s.length() + " characters)";
    }
}
