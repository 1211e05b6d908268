package io.tfstream.testkit;

import io.tfstream.embedded.EmbeddedKafka;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A real single-node KRaft Kafka cluster in this JVM on free localhost ports, for ITCases: the
 * broker of {@code tfstream local} ({@link EmbeddedKafka}, in a class loader of its own), with the
 * test's clients at the Flink line's Kafka client.
 */
public final class KafkaTestCluster implements AutoCloseable {
    private final EmbeddedKafka broker;
    private final boolean secured;

    private KafkaTestCluster(EmbeddedKafka broker, boolean secured) {
        this.broker = broker;
        this.secured = secured;
    }

    /**
     * A broker with authenticated, authorized listeners besides the plaintext one the test's own
     * clients use as a super user (see {@link EmbeddedKafka#startSecured}).
     */
    public static KafkaTestCluster startSecured(long transactionMaxTimeoutMs) throws IOException {
        return new KafkaTestCluster(EmbeddedKafka.startSecured(transactionMaxTimeoutMs), true);
    }

    /** The secured broker's listeners and TLS material. */
    public EmbeddedKafka secured() {
        if (!secured) {
            throw new IllegalStateException("not a secured broker");
        }
        return broker;
    }

    /** Adds ACLs on the secured broker, once applied ({@link EmbeddedKafka#grant}). */
    public void grant(Collection<AclBinding> acls) throws Exception {
        secured().grant(acls);
    }

    /** Removes ACLs. */
    public void revoke(Collection<AclBinding> acls) throws Exception {
        try (Admin admin = admin()) {
            admin.deleteAcls(acls.stream().map(AclBinding::toFilter).toList())
                    .all()
                    .get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (admin
                    .describeAcls(AclBindingFilter.ANY)
                    .values()
                    .get(30, TimeUnit.SECONDS)
                    .stream()
                    .anyMatch(acls::contains)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the broker did not remove " + acls);
                }
                Thread.sleep(50);
            }
        }
    }

    /** An idempotent producer of byte records with {@code acks=all}, for the test's input. */
    public KafkaProducer<byte[], byte[]> idempotentProducer() {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Writes {@code records} to {@code topic}, each with the key and value the functions give,
     * flushed when this returns.
     */
    public <T> void produce(
            String topic,
            List<T> records,
            java.util.function.Function<T, byte[]> key,
            java.util.function.Function<T, byte[]> value) {
        try (KafkaProducer<byte[], byte[]> producer = idempotentProducer()) {
            for (T r : records) {
                producer.send(
                        new org.apache.kafka.clients.producer.ProducerRecord<>(
                                topic, key.apply(r), value.apply(r)));
            }
            producer.flush();
        }
    }

    /** Starts a broker; {@code transactionMaxTimeoutMs} is its transaction.max.timeout.ms. */
    public static KafkaTestCluster start(long transactionMaxTimeoutMs) throws Exception {
        // Tests write records with fixed event times months in the past: time-based retention
        // would delete them while a test reads them.
        return new KafkaTestCluster(
                EmbeddedKafka.start(
                        transactionMaxTimeoutMs,
                        Map.of("log.retention.ms", "-1", "auto.create.topics.enable", "true")),
                false);
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public void createTopic(String name, int partitions) throws Exception {
        createTopic(name, partitions, Map.of());
    }

    /** Creates a topic with topic-level settings, e.g. {@code retention.ms}. */
    public void createTopic(String name, int partitions, Map<String, String> config)
            throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(config)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    public Admin admin() {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return Admin.create(p);
    }

    /**
     * Every committed record of {@code topic} ({@code read_committed}, up to the last stable offset
     * at the time of the call).
     */
    public List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
        return readCommitted(bootstrapServers(), topic);
    }

    /** As {@link #readCommitted(String)}, from the plain broker at {@code bootstrapServers}. */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(
            String bootstrapServers, String topic) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(topic)
                    .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = new HashMap<>(c.endOffsets(parts));
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end");
                }
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    @Override
    public void close() {
        broker.close();
    }
}
