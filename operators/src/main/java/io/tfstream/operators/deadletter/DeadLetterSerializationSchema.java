package io.tfstream.operators.deadletter;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.SourceRecord;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes a {@link DeadLetter} as the original record (value, key and every header byte for byte, in
 * their order) followed by the dead-letter headers of {@link DeadLetterHeaders}: reason code,
 * message cut to {@code maxErrorBytes} of UTF-8 (never inside a character), source coordinates and
 * schema fingerprint. As in Kafka Connect's dead-letter queue, the original headers stay; ours come
 * last, so {@code Headers.lastHeader} returns this dead letter's even when the record already
 * carried {@code tfstream.*} headers (e.g. one replayed from a dead-letter topic).
 */
@Internal
public final class DeadLetterSerializationSchema
        implements KafkaRecordSerializationSchema<DeadLetter> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final String fingerprint;
    private final int maxErrorBytes;

    public DeadLetterSerializationSchema(String topic, String fingerprint, int maxErrorBytes) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.fingerprint = Objects.requireNonNull(fingerprint, "fingerprint");
        if (maxErrorBytes < 0) {
            throw new IllegalArgumentException("maxErrorBytes must be >= 0, got " + maxErrorBytes);
        }
        this.maxErrorBytes = maxErrorBytes;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            DeadLetter d, KafkaSinkContext context, Long timestamp) {
        SourceRecord s = d.source();
        RecordHeaders h = new RecordHeaders();
        for (int i = 0; i < s.headerCount(); i++) {
            h.add(s.headerKey(i), s.headerValue(i));
        }
        h.add(DeadLetterHeaders.REASON, utf8(d.reason().code()));
        h.add(DeadLetterHeaders.ERROR, cut(d.error(), maxErrorBytes));
        if (s.fromFile()) {
            h.add(DeadLetterHeaders.SOURCE_FILE, utf8(s.topic()));
            h.add(DeadLetterHeaders.SOURCE_BYTE_OFFSET, utf8(Long.toString(s.offset())));
        } else {
            h.add(DeadLetterHeaders.SOURCE_TOPIC, utf8(s.topic()));
            h.add(DeadLetterHeaders.SOURCE_PARTITION, utf8(Integer.toString(s.partition())));
            h.add(DeadLetterHeaders.SOURCE_OFFSET, utf8(Long.toString(s.offset())));
            h.add(DeadLetterHeaders.SOURCE_TIMESTAMP, utf8(Long.toString(s.timestamp())));
        }
        // The schema the record was judged under: with schema.update it may not be the configured
        // one.
        h.add(
                DeadLetterHeaders.SCHEMA_FINGERPRINT,
                utf8(d.schemaFingerprint() != null ? d.schemaFingerprint() : fingerprint));
        return new ProducerRecord<>(topic, null, null, s.key(), s.value(), h);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The UTF-8 bytes of {@code s}, cut to at most {@code max} bytes at a character boundary. */
    static byte[] cut(String s, int max) {
        byte[] b = utf8(s);
        if (b.length <= max) {
            return b;
        }
        int end = max;
        while (end > 0 && (b[end] & 0xc0) == 0x80) {
            end--;
        }
        byte[] out = new byte[end];
        System.arraycopy(b, 0, out, 0, end);
        return out;
    }
}
