package io.tfstream.e2e.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads what a downstream consumer sees of a topic: committed records only. */
public final class CommittedRecords {
    private CommittedRecords() {}

    /**
     * Every committed record of {@code topic} ({@code read_committed}, up to the last stable offset
     * at the time of the call), partition by partition.
     */
    public static List<ConsumerRecord<byte[], byte[]>> read(String bootstrapServers, String topic) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        forEach(bootstrapServers, topic, out::add);
        return out;
    }

    /**
     * Hands every committed record of {@code topic} to {@code each} without keeping it: hours of
     * output do not fit in memory. Gives up after 60 s without a record while some are due.
     */
    public static long forEach(
            String bootstrapServers, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long n = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end");
                }
                ConsumerRecords<byte[], byte[]> got = c.poll(Duration.ofMillis(200));
                if (!got.isEmpty()) {
                    deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                }
                for (ConsumerRecord<byte[], byte[]> r : got) {
                    each.accept(r);
                    n++;
                }
            }
            return n;
        }
    }
}
