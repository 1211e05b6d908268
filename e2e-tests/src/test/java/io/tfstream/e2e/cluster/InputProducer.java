package io.tfstream.e2e.cluster;

import io.tfstream.job.InputCorpus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Appends input records to a topic as an upstream service would: idempotent, {@code acks=all},
 * retrying through a broker restart (delivery timeout 5 min), optionally paced to a rate. Returns
 * where each record landed, by key.
 */
public final class InputProducer {
    private InputProducer() {}

    /**
     * An upstream service's producer: idempotent, {@code acks=all}, retrying for 5 minutes, so that
     * a broker restart delays records but neither loses nor repeats them.
     */
    public static Properties settings(String bootstrapServers) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.setProperty(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000");
        p.setProperty(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        return p;
    }

    /** All of {@code inputs} as fast as the broker takes them. */
    public static Map<String, RecordMetadata> produce(
            String bootstrapServers, String topic, List<InputCorpus.Input> inputs)
            throws InterruptedException, ExecutionException {
        return produce(bootstrapServers, topic, inputs, 0);
    }

    /** {@code inputs} at about {@code perSecond} records a second (0: unpaced). */
    public static Map<String, RecordMetadata> produce(
            String bootstrapServers, String topic, List<InputCorpus.Input> inputs, int perSecond)
            throws InterruptedException, ExecutionException {
        Properties p = settings(bootstrapServers);
        Map<String, Future<RecordMetadata>> sent = new HashMap<>();
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int n = 0; n < inputs.size(); n++) {
                InputCorpus.Input i = inputs.get(n);
                sent.put(
                        OutputAudit.key(i.key()),
                        producer.send(new ProducerRecord<>(topic, i.key(), i.value())));
                if (perSecond > 0 && n % 100 == 99) {
                    long due = start + (n + 1) * 1_000_000_000L / perSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
            }
            producer.flush();
        }
        Map<String, RecordMetadata> offsets = new HashMap<>();
        for (Map.Entry<String, Future<RecordMetadata>> e : sent.entrySet()) {
            offsets.put(e.getKey(), e.getValue().get());
        }
        return offsets;
    }
}
