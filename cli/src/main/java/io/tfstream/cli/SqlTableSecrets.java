package io.tfstream.cli;

import io.tfstream.job.InlineCredentials;
import io.tfstream.job.KafkaClientProperties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses SQL DDL that writes a Kafka credential inline in a table's {@code properties.*} options
 * ({@code 'properties.sasl.jaas.config' = '... password="..."'}): the same rule as the job's Kafka
 * settings ({@link InlineCredentials}), since a table's options travel in the job graph too.
 */
final class SqlTableSecrets {
    /** {@code 'key' = 'value'}, each a SQL string literal with {@code ''} for a quote. */
    private static final Pattern OPTION =
            Pattern.compile("'((?:[^']|'')*)'\\s*=\\s*'((?:[^']|'')*)'");

    private static final String KAFKA_PREFIX = "properties.";

    private SqlTableSecrets() {}

    /**
     * What of {@code statement} is a credential given inline, naming the option (never its value);
     * {@code null} when nothing is.
     */
    static String inline(String statement) {
        Matcher m = OPTION.matcher(statement);
        while (m.find()) {
            String key = m.group(1).replace("''", "'");
            if (!key.startsWith(KAFKA_PREFIX)) {
                continue;
            }
            String kafkaKey = key.substring(KAFKA_PREFIX.length());
            String found =
                    InlineCredentials.find(
                            kafkaKey,
                            m.group(2).replace("''", "'"),
                            KafkaClientProperties.isPassword(kafkaKey));
            if (found != null) {
                return KAFKA_PREFIX + found;
            }
        }
        return null;
    }
}
