package io.tfstream.job;

import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.text.Quoted;
import java.time.Duration;
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
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Checks at start what would otherwise fail later and loop through restarts: every Kafka client
 * authenticates, the input and output topics (validation's included) exist and the clients hold the
 * ACLs the job needs (READ on the input topics and the group, WRITE on the output topics and the
 * transactional ids), the batches topic takes the largest payload message, and the sinks'
 * transaction timeout is within the broker's {@code transaction.max.timeout.ms} (otherwise every
 * exactly-once transaction is refused).
 */
public final class KafkaStartupChecks {
    /** How long the checks wait for the cluster. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private KafkaStartupChecks() {}

    /** Runs every check; throws {@link JobConfigException} naming the first problem. */
    public static void check(JobConfig config) {
        if (config.kafkaSource()) {
            String sourceServers = config.get(JobOptions.SOURCE_BOOTSTRAP_SERVERS);
            Client source = new Client("source", sourceServers);
            try (Admin admin = admin(source, config.sourceProperties())) {
                if (!config.sourceTopics().isEmpty()) {
                    requireTopics(
                            admin,
                            source,
                            config.sourceTopics(),
                            "source.topics",
                            AclOperation.READ);
                }
                requireGroup(admin, source, config.sourceGroupId());
            }
        }
        String outputServers = config.outputBootstrapServers();
        Client outputs = new Client("outputs", outputServers);
        try (Admin admin = admin(outputs, config.outputProperties())) {
            for (Map.Entry<String, String> t : config.outputTopics().entrySet()) {
                requireTopics(
                        admin, outputs, List.of(t.getValue()), t.getKey(), AclOperation.WRITE);
                if (t.getKey().equals(JobOptions.OUTPUT_BATCHES_TOPIC.key())) {
                    checkMessageSize(
                            admin, outputs, t.getValue(), config.payloads().maxMessageBytes());
                }
            }
            requireTransactionalIds(admin, outputs, config.transactionalIdPrefix());
            checkTransactionTimeout(
                    admin,
                    outputs,
                    config.view(JobOptionStage.KAFKA_SINKS)
                            .get(KafkaSinkOptions.TRANSACTION_TIMEOUT));
        }
    }

    /** A Kafka client of the job, as messages name it: which one and where it connects. */
    private record Client(String name, String servers) {
        @Override
        public String toString() {
            return "Kafka " + name + " client (" + servers + ")";
        }
    }

    private static Admin admin(Client client, Properties clientProperties) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, client.servers());
        p.setProperty(
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        p.setProperty(
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT.toMillis()));
        // Consumer/producer-only keys are not admin settings: keep the admin client quiet about
        // them (the config providers' own settings are not in its list but resolve the others).
        p.keySet()
                .removeIf(
                        k ->
                                !AdminClientConfig.configNames().contains(k.toString())
                                        && !k.toString().startsWith("config.providers"));
        try {
            return Admin.create(p);
        } catch (KafkaException e) {
            // A key store that does not open, a reference that does not resolve, a JAAS typo.
            throw new JobConfigException(
                    client + ": cannot be created (" + rootMessage(e) + ")", e);
        }
    }

    private static void requireTopics(
            Admin admin, Client client, Collection<String> topics, String key, AclOperation op) {
        Map<String, KafkaFuture<TopicDescription>> described =
                admin.describeTopics(
                                topics,
                                new DescribeTopicsOptions().includeAuthorizedOperations(true))
                        .topicNameValues();
        for (String t : topics) {
            TopicDescription d;
            try {
                d = await(described.get(t), client, "describe topic '" + Quoted.cut(t) + "'");
            } catch (JobConfigException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    throw new JobConfigException(
                            key
                                    + ": topic '"
                                    + t
                                    + "' does not exist on "
                                    + client.servers()
                                    + "; create it first");
                }
                if (e.getCause() instanceof TopicAuthorizationException) {
                    throw missingAcl(client, op, "Topic '" + Quoted.cut(t) + "'", key);
                }
                throw e;
            }
            Set<AclOperation> allowed = d.authorizedOperations();
            if (allowed != null && !allowed.contains(op) && !allowed.contains(AclOperation.ALL)) {
                throw missingAcl(client, op, "Topic '" + Quoted.cut(t) + "'", key);
            }
        }
    }

    /** The source commits its offsets to its group on checkpoints: READ on the group. */
    private static void requireGroup(Admin admin, Client client, String group) {
        String resource = "Group '" + Quoted.cut(group) + "'";
        try {
            ConsumerGroupDescription d =
                    await(
                            admin.describeConsumerGroups(
                                            List.of(group),
                                            new DescribeConsumerGroupsOptions()
                                                    .includeAuthorizedOperations(true))
                                    .describedGroups()
                                    .get(group),
                            client,
                            "describe group '" + Quoted.cut(group) + "'");
            Set<AclOperation> allowed = d.authorizedOperations();
            if (allowed != null
                    && !allowed.isEmpty()
                    && !allowed.contains(AclOperation.READ)
                    && !allowed.contains(AclOperation.ALL)) {
                throw missingAcl(client, AclOperation.READ, resource, "source.group-id");
            }
        } catch (JobConfigException e) {
            if (e.getCause() instanceof GroupAuthorizationException) {
                throw missingAcl(client, AclOperation.READ, resource, "source.group-id");
            }
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
            // A group that never committed: its permissions show only when it is used.
        }
    }

    /**
     * The exactly-once sinks' transactional ids start with {@code prefix}: asking for one that does
     * not exist answers "not found" with WRITE (or DESCRIBE) on them, "not authorized" without.
     */
    private static void requireTransactionalIds(Admin admin, Client client, String prefix) {
        String probe = prefix + "dlq-0-0";
        try {
            await(
                    admin.describeTransactions(List.of(probe)).description(probe),
                    client,
                    "describe transactional id '" + probe + "'");
        } catch (JobConfigException e) {
            if (e.getCause() instanceof TransactionalIdAuthorizationException) {
                throw missingAcl(
                        client,
                        AclOperation.WRITE,
                        "TransactionalId prefix '" + Quoted.cut(prefix) + "' (PREFIXED)",
                        "job.name");
            }
            if (!(e.getCause() instanceof TransactionalIdNotFoundException)) {
                throw e;
            }
        }
    }

    private static JobConfigException missingAcl(
            Client client, AclOperation op, String resource, String key) {
        return new JobConfigException(
                client
                        + ": not authorized; the ACL "
                        + op.name()
                        + " on "
                        + resource
                        + " ("
                        + key
                        + ") is missing for its principal (see docs/operations.md#kafka-acls)");
    }

    /** The batches topic must take the largest payload message the job may send. */
    private static void checkMessageSize(Admin admin, Client client, String topic, long bytes) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<ConfigResource, Config> configs =
                describeConfigs(admin, client, r, "describe topic " + topic);
        if (configs == null) {
            return;
        }
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

    private static void checkTransactionTimeout(Admin admin, Client client, Duration timeout) {
        Collection<Node> nodes =
                await(admin.describeCluster().nodes(), client, "describe the cluster");
        for (Node n : nodes) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, n.idString());
            Map<ConfigResource, Config> configs =
                    describeConfigs(admin, client, broker, "describe broker " + n.idString());
            if (configs == null) {
                return;
            }
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

    /**
     * The configs of {@code r}, or null when the client may not describe them: the size and timeout
     * checks are a courtesy that needs no ACL of its own.
     */
    private static Map<ConfigResource, Config> describeConfigs(
            Admin admin, Client client, ConfigResource r, String what) {
        try {
            return await(admin.describeConfigs(List.of(r)).all(), client, what);
        } catch (JobConfigException e) {
            if (e.getCause() instanceof AuthorizationException) {
                return null;
            }
            throw e;
        }
    }

    private static <T> T await(KafkaFuture<T> f, Client client, String what) {
        try {
            return f.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new JobConfigException(
                    "cannot reach the "
                            + client
                            + " to "
                            + what
                            + " within "
                            + TIMEOUT.toSeconds()
                            + " s",
                    e);
        } catch (ExecutionException e) {
            throw new JobConfigException(failure(client, what, e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobConfigException(
                    "interrupted while asking the " + client + " to " + what, e);
        }
    }

    /**
     * One line for the failure of Kafka client {@code name} (e.g. source) at {@code servers} to do
     * {@code what}: which client, and the cause a user acts on (credentials, trust, the rest).
     */
    public static String failure(String name, String servers, String what, Throwable cause) {
        return failure(new Client(name, servers), what, cause);
    }

    private static String failure(Client client, String what, Throwable cause) {
        if (cause instanceof SaslAuthenticationException) {
            return client
                    + ": SASL authentication failed ("
                    + Quoted.cut(String.valueOf(cause.getMessage()))
                    + "); check sasl.mechanism and the credentials of sasl.jaas.config";
        }
        if (cause instanceof SslAuthenticationException) {
            return client
                    + ": TLS handshake failed ("
                    + rootMessage(cause)
                    + "); check ssl.truststore.* (does it hold the broker's CA?) and, for mutual"
                    + " TLS, ssl.keystore.*";
        }
        if (cause instanceof AuthenticationException) {
            return client + ": authentication failed (" + rootMessage(cause) + ")";
        }
        return "the " + client + " failed to " + what + ": " + cause;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return Quoted.cut(m);
    }
}
