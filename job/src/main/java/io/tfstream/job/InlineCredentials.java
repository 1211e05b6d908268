package io.tfstream.job;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a credential written inline in a Kafka client setting, wherever the setting comes from (a
 * job's {@code source.properties.*} and {@code output.properties.*}, a SQL table's {@code
 * properties.*}): the settings Kafka types as passwords, the credentials of serializers and
 * registries it types as strings ({@code basic.auth.user.info}, {@code bearer.auth.token}), and
 * every credential option of a JAAS line ({@code password}, {@code clientSecret}, ...), each of
 * which must be a whole reference such as {@code ${file:/path:key}}. One reference elsewhere in the
 * same JAAS line does not make an inline password safe.
 */
public final class InlineCredentials {
    /** Settings Kafka's clients do not type as passwords that still hold a credential. */
    private static final Set<String> STRING_TYPED =
            Set.of("basic.auth.user.info", "bearer.auth.token", "sasl.oauthbearer.client.secret");

    /** A JAAS option's name that holds a credential (not a key tab file, not a user name). */
    private static final Pattern CREDENTIAL_OPTION =
            Pattern.compile("(?i).*(password|passwd|secret|token|credential|api[-_.]?key).*");

    /** The start of a JAAS line: a login module and its control flag. */
    private static final Pattern JAAS_LINE =
            Pattern.compile("\\s*[A-Za-z0-9_.$]+\\s+(required|requisite|sufficient|optional)\\b");

    /** A JAAS option: {@code name="quoted value"} or {@code name=bare}. */
    private static final Pattern JAAS_OPTION =
            Pattern.compile(
                    "([A-Za-z0-9_.$-]+)\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^\\s;\"]+))");

    private InlineCredentials() {}

    /**
     * What of setting {@code key} is a credential given inline: {@code null} when none is, else a
     * description that names the setting (and the JAAS option), never the value.
     */
    public static String find(String key, String value, boolean kafkaPassword) {
        String k = key.toLowerCase(Locale.ROOT);
        if (isJaas(k) && !Secrets.isReference(value)) {
            if (!JAAS_LINE.matcher(value).lookingAt()) {
                // not a JAAS line: nothing to tell its credentials from the rest
                return key;
            }
            Matcher m = JAAS_OPTION.matcher(value);
            while (m.find()) {
                String option = m.group(1);
                String v = m.group(2) != null ? m.group(2) : m.group(3);
                if (CREDENTIAL_OPTION.matcher(option).matches() && !Secrets.isReference(v)) {
                    return key + " (its JAAS option " + option + ")";
                }
            }
            return null;
        }
        boolean credential =
                kafkaPassword
                        || STRING_TYPED.stream().anyMatch(s -> k.equals(s) || k.endsWith("." + s));
        return credential && !Secrets.isReference(value) ? key : null;
    }

    private static boolean isJaas(String key) {
        return key.equals("sasl.jaas.config") || key.endsWith(".sasl.jaas.config");
    }
}
