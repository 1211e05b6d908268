package io.tfstream.job;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one rule for which settings hold secrets, used wherever settings are printed, logged or taken
 * from a command line: passwords, keys, tokens, JAAS and SASL login settings, user infos of basic
 * auth, PEM private keys ({@code ssl.keystore.key}), API keys. Settings that only name where a
 * secret is (a file, a location, a URL, a class) are not secrets themselves.
 */
public final class Secrets {
    /** What a secret's value is printed as. */
    public static final String MASK = "******";

    private static final Pattern SECRET =
            Pattern.compile(
                    ".*(password|passwd|secret|jaas|credential|token|sasl\\.login|auth|api[-_.]?key"
                            + "|private|keystore\\.key|access[-_.]?key|session[-_.]?key).*");

    private static final Pattern REFERENCE =
            Pattern.compile(
                    ".*[-_.](file|location|path|url|endpoint|class|provider|mechanism|protocol|source"
                            + "|type|algorithm)$");

    private Secrets() {}

    /** Whether the value of setting {@code key} must never be printed, logged or shown. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return SECRET.matcher(k).matches() && !REFERENCE.matcher(k).matches();
    }

    /** {@code value}, or {@link #MASK} when {@code key} is a secret. */
    public static String shown(String key, Object value) {
        return isSecret(key) ? MASK : String.valueOf(value);
    }

    /**
     * Whether {@code value} only refers to a secret kept elsewhere: a Kafka config provider
     * reference such as {@code ${file:/etc/kafka/secrets.properties:password}}.
     */
    public static boolean isReference(String value) {
        String v = value.trim();
        return v.startsWith("${") && v.endsWith("}") && v.indexOf("${", 2) < 0;
    }
}
