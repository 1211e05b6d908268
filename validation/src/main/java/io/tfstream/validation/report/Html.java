package io.tfstream.validation.report;

/** Escaping for the report's text and attribute values. */
final class Html {
    private Html() {}

    /** {@code s} safe as element text or a double-quoted attribute value. */
    static String text(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r =
                    switch (c) {
                        case '&' -> "&amp;";
                        case '<' -> "&lt;";
                        case '>' -> "&gt;";
                        case '"' -> "&quot;";
                        case '\'' -> "&#39;";
                        default -> null;
                    };
            if (r != null || (c < 0x20 && c != '\n' && c != '\t')) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                b.append(r != null ? r : "\uFFFD");
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
