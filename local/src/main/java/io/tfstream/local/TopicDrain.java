package io.tfstream.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a topic's committed records ({@code read_committed}) from the start to its end. */
final class TopicDrain {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private TopicDrain() {}

    /**
     * Hands every committed record of {@code topic}, partition by partition in offset order, to
     * {@code sink}, up to the last stable offsets at the time of the call.
     */
    static void readCommitted(
            LocalBroker broker, String topic, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        Properties p = broker.properties();
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.setProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(64 << 20));
        p.setProperty(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Integer.toString(64 << 20));
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo info : c.partitionsFor(topic, TIMEOUT)) {
                parts.add(new TopicPartition(topic, info.partition()));
            }
            parts.sort(java.util.Comparator.comparingInt(TopicPartition::partition));
            Map<TopicPartition, Long> end = c.endOffsets(parts, TIMEOUT);
            for (TopicPartition tp : parts) {
                long stop = end.get(tp);
                c.assign(List.of(tp));
                c.seekToBeginning(List.of(tp));
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (c.position(tp, TIMEOUT) < stop) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "could not read "
                                        + tp
                                        + " to offset "
                                        + stop
                                        + " within "
                                        + TIMEOUT.toSeconds()
                                        + " s");
                    }
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                        if (r.offset() < stop) {
                            sink.accept(r);
                        }
                    }
                }
            }
        }
    }

    /**
     * Writes every committed record of {@code topic} to {@code file} as one line, {@code line}'s
     * text for it; returns the number of records.
     */
    static long toLines(
            LocalBroker broker,
            String topic,
            Path file,
            Function<ConsumerRecord<byte[], byte[]>, String> line)
            throws IOException {
        long[] n = {0};
        try (Writer w = Files.newBufferedWriter(file)) {
            readCommitted(
                    broker,
                    topic,
                    r -> {
                        try {
                            w.write(line.apply(r));
                            w.write('\n');
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        n[0]++;
                    });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return n[0];
    }
}
