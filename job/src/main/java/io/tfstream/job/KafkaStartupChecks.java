package io.tfstream.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Checks at start what would otherwise fail later and loop through restarts: the input and output
 * topics (validation's included) exist, the batches topic takes the largest payload message, and
 * the sinks' transaction timeout is within the broker's {@code transaction.max.timeout.ms}
 * (otherwise every exactly-once transaction is refused).
 */
public final class KafkaStartupChecks {
    /** How long the checks wait for the cluster. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private KafkaStartupChecks() {}

    /** Runs every check; throws {@link JobConfigException} naming the first problem. */
    public static void check(JobConfig config) {
        String sourceServers = config.get(JobOptions.SOURCE_BOOTSTRAP_SERVERS);
        if (config.contains(JobOptions.SOURCE_TOPICS)) {
            try (Admin admin = admin(sourceServers, config.sourceProperties())) {
                requireTopics(
                        admin,
                        sourceServers,
                        config.get(JobOptions.SOURCE_TOPICS),
                        "source.topics");
            }
        }
        String outputServers = config.outputBootstrapServers();
        try (Admin admin = admin(outputServers, config.outputProperties())) {
            List<String> outputs = new ArrayList<>();
            outputs.add(config.get(JobOptions.DLQ_TOPIC));
            requireTopics(admin, outputServers, outputs, "dlq.topic");
            if (config.contains(JobOptions.OUTPUT_RECORDS_TOPIC)) {
                requireTopics(
                        admin,
                        outputServers,
                        List.of(config.get(JobOptions.OUTPUT_RECORDS_TOPIC)),
                        "output.records.topic");
            }
            if (config.contains(JobOptions.OUTPUT_BATCHES_TOPIC)) {
                String batches = config.get(JobOptions.OUTPUT_BATCHES_TOPIC);
                requireTopics(admin, outputServers, List.of(batches), "output.batches.topic");
                checkMessageSize(
                        admin, outputServers, batches, config.payloads().maxMessageBytes());
            }
            if (config.get(JobOptions.VALIDATION_ENABLED)
                    || config.contains(JobOptions.VALIDATION_ALERTS_TOPIC)) {
                requireTopics(
                        admin,
                        outputServers,
                        List.of(config.get(JobOptions.VALIDATION_ALERTS_TOPIC)),
                        "validation.alerts-topic");
                if (config.contains(JobOptions.VALIDATION_ANOMALIES_TOPIC)) {
                    requireTopics(
                            admin,
                            outputServers,
                            List.of(config.get(JobOptions.VALIDATION_ANOMALIES_TOPIC)),
                            "validation.anomalies-topic");
                }
            }
            checkTransactionTimeout(
                    admin, outputServers, config.get(JobOptions.OUTPUT_TRANSACTION_TIMEOUT));
        }
    }

    private static Admin admin(String servers, Properties clientProperties) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        p.setProperty(
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        p.setProperty(
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        // Consumer/producer-only keys are not admin settings: keep the admin client quiet about
        // them.
        p.keySet().removeIf(k -> !AdminClientConfig.configNames().contains(k.toString()));
        return Admin.create(p);
    }

    private static void requireTopics(
            Admin admin, String servers, Collection<String> topics, String key) {
        Set<String> existing = await(admin.listTopics().names(), servers, "list topics");
        for (String t : topics) {
            if (!existing.contains(t)) {
                throw new JobConfigException(
                        key
                                + ": topic '"
                                + t
                                + "' does not exist on "
                                + servers
                                + "; create it first");
            }
        }
    }

    /** The batches topic must take the largest payload message the job may send. */
    private static void checkMessageSize(Admin admin, String servers, String topic, long bytes) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<ConfigResource, Config> configs =
                await(admin.describeConfigs(List.of(r)).all(), servers, "describe topic " + topic);
        ConfigEntry max = configs.get(r).get("max.message.bytes");
        if (max == null || max.value() == null) {
            return;
        }
        long topicMax = Long.parseLong(max.value());
        if (bytes > topicMax) {
            throw new JobConfigException(
                    "output.batches.max-message-bytes ("
                            + bytes
                            + " bytes) is larger than topic '"
                            + topic
                            + "''s max.message.bytes ("
                            + topicMax
                            + " bytes): set output.batches.max-message-bytes to at most "
                            + topicMax
                            + " or raise the topic's max.message.bytes");
        }
    }

    private static void checkTransactionTimeout(Admin admin, String servers, Duration timeout) {
        Collection<Node> nodes =
                await(admin.describeCluster().nodes(), servers, "describe the cluster");
        for (Node n : nodes) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, n.idString());
            Map<ConfigResource, Config> configs =
                    await(
                            admin.describeConfigs(List.of(broker)).all(),
                            servers,
                            "describe broker " + n.idString());
            ConfigEntry max = configs.get(broker).get("transaction.max.timeout.ms");
            if (max == null || max.value() == null) {
                continue;
            }
            long maxMs = Long.parseLong(max.value());
            if (timeout.toMillis() > maxMs) {
                throw new JobConfigException(
                        "output.transaction-timeout ("
                                + timeout.toMillis()
                                + " ms) is larger than broker "
                                + n.idString()
                                + "'s transaction.max.timeout.ms ("
                                + maxMs
                                + " ms): lower output.transaction-timeout or raise the broker's"
                                + " maximum");
            }
        }
    }

    private static <T> T await(
            org.apache.kafka.common.KafkaFuture<T> f, String servers, String what) {
        try {
            return f.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new JobConfigException(
                    "cannot reach Kafka at "
                            + servers
                            + " to "
                            + what
                            + " within "
                            + TIMEOUT.toSeconds()
                            + " s",
                    e);
        } catch (ExecutionException e) {
            throw new JobConfigException(
                    "Kafka at " + servers + " failed to " + what + ": " + e.getCause(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobConfigException(
                    "interrupted while asking Kafka at " + servers + " to " + what, e);
        }
    }
}
