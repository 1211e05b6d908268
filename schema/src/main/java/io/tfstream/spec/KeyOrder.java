package io.tfstream.spec;

import java.util.Comparator;

/**
 * Orders feature keys as Python's {@code sorted()} orders {@code str}: by Unicode code point (which
 * is also the byte order of their UTF-8 encodings), not by UTF-16 unit.
 */
public final class KeyOrder {
    public static final Comparator<String> CODE_POINT = KeyOrder::compare;

    private KeyOrder() {}

    private static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
