package io.tfstream.local;

import io.tfstream.job.KafkaClientProperties;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The Kafka broker of a run and how its clients reach it: {@code bootstrap} and the client settings
 * of {@code --broker-config} (security.protocol, sasl.*, ssl.*, as Kafka's own tools take them with
 * {@code --command-config}; none for a broker without security, the embedded one included).
 *
 * <p>The run's own clients (topics, input, drains) use the file as it is. The job gets the same
 * settings with each secret replaced by a reference to its key in the file ({@code
 * ${file:FILE:KEY}}), resolved inside the job's Kafka clients, so that the secret stays in the
 * file.
 */
record LocalBroker(String bootstrap, Properties client, Path configFile) {
    /**
     * The broker at {@code bootstrap}, its client settings read from {@code configFile} (null:
     * none).
     */
    static LocalBroker of(String bootstrap, Path configFile) {
        Properties client = new Properties();
        if (configFile != null) {
            try (Reader r = Files.newBufferedReader(configFile)) {
                client.load(r);
            } catch (IOException e) {
                throw new LocalRun.UsageException(
                        "--broker-config: cannot read " + configFile + ": " + e.getMessage(), e);
            }
        }
        return new LocalBroker(
                bootstrap, client, configFile == null ? null : configFile.toAbsolutePath());
    }

    /** The client settings with {@code bootstrap.servers}, a fresh copy for one client. */
    Properties properties() {
        Properties p = new Properties();
        p.putAll(client);
        p.setProperty("bootstrap.servers", bootstrap);
        return p;
    }

    /**
     * The client settings for the job's Kafka clients: secrets as references into the file, the
     * file's own config providers left out (the job declares its own).
     */
    Map<String, String> jobSettings() {
        Map<String, String> out = new TreeMap<>();
        for (String key : client.stringPropertyNames()) {
            String value = client.getProperty(key);
            if (key.equals("bootstrap.servers") || key.startsWith("config.providers")) {
                continue;
            }
            boolean inline = !value.contains("${");
            out.put(
                    key,
                    KafkaClientProperties.isPassword(key) && inline
                            ? "${file:" + configFile + ":" + key + "}"
                            : value);
        }
        return out;
    }

    @Override
    public String toString() {
        return bootstrap;
    }
}
