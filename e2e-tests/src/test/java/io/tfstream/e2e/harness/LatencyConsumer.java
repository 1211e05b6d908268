package io.tfstream.e2e.harness;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The latency run's reader: a {@code read_committed} consumer that takes, for each accepted record
 * it sees, the time since the record's append, until all are seen or the producer has stopped and
 * nothing arrived for 30 s.
 */
final class LatencyConsumer {
    private LatencyConsumer() {}

    static void consume(
            String bootstrapServers,
            String topic,
            long expected,
            List<Double> samples,
            AtomicBoolean producing) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, topic + "-latency");
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            long idleSince = System.nanoTime();
            while (samples.size() < expected) {
                var records = c.poll(Duration.ofMillis(20));
                long now = System.currentTimeMillis();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    samples.add((double) (now - r.timestamp()));
                }
                if (!records.isEmpty()) {
                    idleSince = System.nanoTime();
                } else if (!producing.get() && System.nanoTime() - idleSince > 30e9) {
                    return;
                }
            }
        }
    }

    static double percentile(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }
}
