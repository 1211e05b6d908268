package io.tfstream.api;

import io.tfstream.api.options.KafkaSinkOptions;
import java.time.Duration;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * The settings every tfstream Kafka sink shares: brokers, topic, producer properties, delivery
 * guarantee (exactly once by default, as {@code tfstream run} writes every output) and, for exactly
 * once, the transactional-id prefix and the transaction timeout. Subclasses add the settings of
 * their record format; {@link #build()} checks everything once and names the setting that is wrong.
 *
 * @param <T> the records the sink writes
 * @param <B> the concrete builder, returned by every setter
 */
@PublicEvolving
public abstract class TfstreamKafkaSinkBuilder<T, B extends TfstreamKafkaSinkBuilder<T, B>> {
    /** The producer's {@code transaction.timeout.ms} by default, as {@code tfstream run}'s. */
    public static final Duration DEFAULT_TRANSACTION_TIMEOUT =
            KafkaSinkOptions.TRANSACTION_TIMEOUT.defaultValue();

    private String bootstrapServers;
    private String topic;
    private Properties properties = new Properties();
    private DeliveryGuarantee deliveryGuarantee = DeliveryGuarantee.EXACTLY_ONCE;
    private String transactionalIdPrefix;
    private Duration transactionTimeout = DEFAULT_TRANSACTION_TIMEOUT;

    TfstreamKafkaSinkBuilder() {}

    /** The brokers to write to, a {@code host:port} list (required). */
    public B setBootstrapServers(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        return self();
    }

    /** The topic to write to (required). */
    public B setTopic(String topic) {
        this.topic = topic;
        return self();
    }

    /** This builder, typed as the concrete one. */
    abstract B self();

    /** The record format, built from checked settings (the topic is already checked). */
    abstract KafkaRecordSerializationSchema<T> serializationSchema(String topic);

    /** Checks the format's own settings. */
    abstract void checkFormat();

    /** Adds the format's producer settings to {@code p} (copied from {@link #setProperties}). */
    void producerSettings(Properties p) {}

    /** Producer properties passed to the Kafka client as they are (default none). */
    public B setProperties(Properties properties) {
        this.properties = properties;
        return self();
    }

    /**
     * Exactly once (the default: transactions committed at checkpoints, read with {@code
     * read_committed}), at least once or none.
     */
    public B setDeliveryGuarantee(DeliveryGuarantee deliveryGuarantee) {
        this.deliveryGuarantee = deliveryGuarantee;
        return self();
    }

    /**
     * The prefix of the sink's Kafka transactional ids, required for exactly once: unique per sink
     * of every job writing to the brokers, and kept across restarts (a restart aborts the
     * transactions its previous run left open under it).
     */
    public B setTransactionalIdPrefix(String transactionalIdPrefix) {
        this.transactionalIdPrefix = transactionalIdPrefix;
        return self();
    }

    /**
     * The producer's {@code transaction.timeout.ms} with exactly once (default 10 min): at least a
     * checkpoint interval plus a restart, at most the brokers' {@code transaction.max.timeout.ms}.
     */
    public B setTransactionTimeout(Duration transactionTimeout) {
        this.transactionTimeout = transactionTimeout;
        return self();
    }

    /**
     * The producer properties the sink runs with: those set, the format's, and the transaction
     * timeout with exactly once. Settings are checked first.
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting
     */
    Properties producerProperties() {
        check(
                bootstrapServers != null && !bootstrapServers.isBlank(),
                "bootstrapServers must be a non-empty host:port list");
        check(topic != null && !topic.isBlank(), "topic must be a non-empty topic name");
        check(properties != null, "properties must be set (it was set to null)");
        check(deliveryGuarantee != null, "deliveryGuarantee must be set (it was set to null)");
        boolean exactlyOnce = deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE;
        check(
                !exactlyOnce || (transactionalIdPrefix != null && !transactionalIdPrefix.isBlank()),
                "transactionalIdPrefix is required with deliveryGuarantee EXACTLY_ONCE (unique per"
                        + " sink and kept across restarts)");
        check(
                transactionTimeout != null
                        && !transactionTimeout.isNegative()
                        && !transactionTimeout.isZero(),
                "transactionTimeout must be positive, got " + transactionTimeout);
        checkFormat();
        Properties p = new Properties();
        p.putAll(properties);
        producerSettings(p);
        if (exactlyOnce) {
            p.setProperty("transaction.timeout.ms", Long.toString(transactionTimeout.toMillis()));
        }
        return p;
    }

    /**
     * The Kafka sink, every setting checked.
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting
     */
    public KafkaSink<T> build() {
        Properties p = producerProperties();
        var b =
                KafkaSink.<T>builder()
                        .setBootstrapServers(bootstrapServers)
                        .setKafkaProducerConfig(p)
                        .setRecordSerializer(serializationSchema(topic))
                        .setDeliveryGuarantee(deliveryGuarantee);
        if (transactionalIdPrefix != null) {
            b.setTransactionalIdPrefix(transactionalIdPrefix);
        }
        return b.build();
    }

    static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
