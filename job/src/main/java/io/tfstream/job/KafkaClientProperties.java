package io.tfstream.job;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.provider.EnvVarConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;

/**
 * The Kafka client settings of the job ({@code source.properties.*}, {@code output.properties.*}):
 * secrets only as references resolved where the client runs, and config providers set by tfstream
 * alone.
 *
 * <p>Client settings travel in the job graph (inside the source and the sinks), so a secret given
 * inline would reach the cluster's blob store and HA storage. A setting Kafka types as a password
 * ({@code sasl.jaas.config}, {@code ssl.*.password}, {@code ssl.keystore.key}, ...) is therefore
 * only taken as {@code ${file:PATH:KEY}} (a key of a properties file) or {@code ${env:NAME}}:
 * Kafka's own {@link FileConfigProvider} and {@link EnvVarConfigProvider} resolve them inside each
 * client, on the TaskManagers. Settings cannot add config providers themselves (a provider reads
 * files or calls services on every TaskManager): tfstream declares exactly these two, the file
 * provider limited to the files referred to and the environment provider to the variables referred
 * to.
 */
public final class KafkaClientProperties {
    /**
     * The JVM system property of Kafka's clients that allow-lists config provider classes; tfstream
     * sets it to {@link #ALLOWED_PROVIDERS} in the JVMs it starts.
     */
    public static final String AUTOMATIC_PROVIDERS_PROPERTY =
            "org.apache.kafka.automatic.config.providers";

    /**
     * The config provider classes tfstream uses, the value of {@link
     * #AUTOMATIC_PROVIDERS_PROPERTY}.
     */
    public static final String ALLOWED_PROVIDERS =
            FileConfigProvider.class.getName() + "," + EnvVarConfigProvider.class.getName();

    private static final String PROVIDERS = "config.providers";
    private static final Pattern FILE_REFERENCE = Pattern.compile("\\$\\{file:([^:}]+):[^}]+}");
    private static final Pattern ENV_REFERENCE = Pattern.compile("\\$\\{env:([^:}]*):?([^}]*)}");
    private static final Pattern ANY_REFERENCE = Pattern.compile("\\$\\{([^:}]+):[^}]*}");

    /** Settings Kafka types as passwords, for consumers, producers and admin clients alike. */
    private static final Set<String> PASSWORDS = passwords();

    private KafkaClientProperties() {}

    /**
     * Checks the client settings given under {@code prefix} (for messages) and returns them with
     * the config providers their references need; throws {@link JobConfigException} naming the
     * setting otherwise.
     */
    public static Properties resolve(Properties given, String prefix) {
        Set<String> files = new TreeSet<>();
        Set<String> variables = new TreeSet<>();
        for (String key : given.stringPropertyNames()) {
            String value = given.getProperty(key);
            if (key.equals(PROVIDERS) || key.startsWith(PROVIDERS + ".")) {
                throw new JobConfigException(
                        prefix
                                + key
                                + ": config providers are tfstream's to declare (file and env, limited"
                                + " to what the settings refer to); refer to a secret as"
                                + " ${file:/path/to/file.properties:key} or ${env:NAME}");
            }
            Matcher any = ANY_REFERENCE.matcher(value);
            while (any.find()) {
                String provider = any.group(1);
                if (!provider.equals("file") && !provider.equals("env")) {
                    throw new JobConfigException(
                            prefix
                                    + key
                                    + ": refers to config provider '"
                                    + provider
                                    + "'; only ${file:PATH:KEY} and ${env:NAME} are resolved");
                }
            }
            Matcher file = FILE_REFERENCE.matcher(value);
            while (file.find()) {
                files.add(file.group(1));
            }
            Matcher env = ENV_REFERENCE.matcher(value);
            while (env.find()) {
                // ${env:NAME} and ${env::NAME} (Kafka's own form: an empty path) both name NAME.
                variables.add(env.group(2).isEmpty() ? env.group(1) : env.group(2));
            }
            // A JAAS line carries each credential as a reference: password="${file:...}".
            String inline = InlineCredentials.find(key, value, isPassword(key));
            if (inline != null) {
                throw new JobConfigException(
                        prefix
                                + inline
                                + ": a secret is only taken as a reference resolved on the"
                                + " TaskManagers, ${file:/path/to/file.properties:key} or"
                                + " ${env:NAME} (client settings travel in the job graph)");
            }
        }
        Properties out = new Properties();
        out.putAll(given);
        Set<String> providers = new LinkedHashSet<>();
        if (!files.isEmpty()) {
            providers.add("file");
            out.setProperty(PROVIDERS + ".file.class", FileConfigProvider.class.getName());
            out.setProperty(PROVIDERS + ".file.param.allowed.paths", String.join(",", files));
        }
        if (!variables.isEmpty()) {
            providers.add("env");
            out.setProperty(PROVIDERS + ".env.class", EnvVarConfigProvider.class.getName());
            out.setProperty(
                    PROVIDERS + ".env.param.allowlist.pattern",
                    variables.stream().map(Pattern::quote).collect(Collectors.joining("|")));
        }
        if (!providers.isEmpty()) {
            out.setProperty(PROVIDERS, String.join(",", providers));
        }
        return out;
    }

    /** Whether Kafka's clients type setting {@code key} as a password. */
    public static boolean isPassword(String key) {
        return PASSWORDS.contains(key.toLowerCase(Locale.ROOT));
    }

    /**
     * Allow-lists tfstream's config providers in this JVM unless the JVM was started with its own
     * list: what a client setting (a SQL table's {@code properties.*} included) may instantiate.
     */
    public static void allowOnlyTfstreamProviders() {
        if (System.getProperty(AUTOMATIC_PROVIDERS_PROPERTY) == null) {
            System.setProperty(AUTOMATIC_PROVIDERS_PROPERTY, ALLOWED_PROVIDERS);
        }
    }

    private static Set<String> passwords() {
        Set<String> out = new TreeSet<>();
        for (ConfigDef def :
                new ConfigDef[] {
                    ConsumerConfig.configDef(),
                    ProducerConfig.configDef(),
                    AdminClientConfig.configDef()
                }) {
            def.configKeys().values().stream()
                    .filter(k -> k.type == ConfigDef.Type.PASSWORD)
                    // Certificates are typed so but are public.
                    .filter(k -> !k.name.endsWith("certificates") && !k.name.endsWith(".chain"))
                    .forEach(k -> out.add(k.name));
        }
        return Set.copyOf(out);
    }
}
