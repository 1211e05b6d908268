package io.tfstream.e2e.harness;

import io.tfstream.embedded.EmbeddedKafka;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The harness's topics on its broker: created with {@code partitions} partitions and waited for
 * until every broker answers, loaded round-robin over the partitions from a pool of records, and a
 * run's output topics deleted and created anew after it.
 */
final class HarnessTopics {
    private final EmbeddedKafka kafka;
    private final int partitions;

    HarnessTopics(EmbeddedKafka kafka, int partitions) {
        this.kafka = kafka;
        this.partitions = partitions;
    }

    void create(String... names) throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            List<NewTopic> topics = new ArrayList<>();
            for (String n : names) {
                topics.add(new NewTopic(n, partitions, (short) 1));
            }
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
        await(List.of(names));
    }

    void load(String topic, List<byte[]> pool, long n) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (long i = 0; i < n; i++) {
                producer.send(
                        new ProducerRecord<>(
                                topic,
                                (int) (i % partitions),
                                null,
                                pool.get((int) (i % pool.size()))));
            }
            producer.flush();
        }
    }

    KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "1");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "10");
        p.setProperty(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 << 10));
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The topics the jobs reading {@code in} write to. */
    static List<String> outputsOf(String in) {
        return List.of(
                in + "-copy",
                in + "-dlq",
                in + "-batches",
                in + "-records",
                in + "-alerts",
                in + "-statistics");
    }

    /** Creates the input topic {@code in} and the topics its jobs write to. */
    void createWithOutputs(String in) throws Exception {
        List<String> all = new ArrayList<>(List.of(in));
        all.addAll(outputsOf(in));
        create(all.toArray(String[]::new));
    }

    void resetOutputs(String in) throws Exception {
        List<String> outputs = outputsOf(in);
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            admin.deleteTopics(outputs).all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (admin.listTopics().names().get(60, TimeUnit.SECONDS).stream()
                    .anyMatch(outputs::contains)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("output topics of " + in + " not deleted");
                }
                Thread.sleep(100);
            }
        }
        create(outputs.toArray(String[]::new));
    }

    /** Waits until every broker answers for {@code topics} (a new job checks them at start). */
    private void await(List<String> topics) throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try {
                    admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS);
                    if (admin.listTopics().names().get(10, TimeUnit.SECONDS).containsAll(topics)) {
                        return;
                    }
                } catch (java.util.concurrent.ExecutionException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("topics " + topics + " not ready", notYet);
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics " + topics + " not listed");
                }
                Thread.sleep(100);
            }
        }
    }
}
