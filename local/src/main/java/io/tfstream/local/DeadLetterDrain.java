package io.tfstream.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * Writes the committed dead letters of a run to {@code dlq.jsonl}, one JSON line each: reason,
 * error, source (file and byte offset, or topic, partition, offset and timestamp), key and value in
 * base64, and the fingerprint of the schema the record was refused under.
 */
final class DeadLetterDrain {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DeadLetterDrain() {}

    /**
     * Drains {@code topic} into {@code file}; returns the count, by reason into {@code byReason}.
     */
    static long drain(
            LocalBroker broker,
            String topic,
            Path file,
            Map<String, Long> byReason,
            SchemaCounts bySchema)
            throws IOException {
        return TopicDrain.toLines(
                broker,
                topic,
                file,
                r -> {
                    ObjectNode line = line(r);
                    byReason.merge(line.get("reason").asText(), 1L, Long::sum);
                    bySchema.of(line.get("schema_fingerprint").asText()).deadLettered++;
                    return line.toString();
                });
    }

    private static ObjectNode line(ConsumerRecord<byte[], byte[]> r) {
        Headers h = r.headers();
        ObjectNode line = JSON.createObjectNode();
        line.put("reason", header(h, DeadLetterHeaders.REASON));
        line.put("error", header(h, DeadLetterHeaders.ERROR));
        ObjectNode source = line.putObject("source");
        String file = header(h, DeadLetterHeaders.SOURCE_FILE);
        if (!file.isEmpty()) {
            source.put("file", file);
            source.put(
                    "byte_offset", Long.parseLong(header(h, DeadLetterHeaders.SOURCE_BYTE_OFFSET)));
        } else {
            source.put("topic", header(h, DeadLetterHeaders.SOURCE_TOPIC));
            source.put(
                    "partition", Integer.parseInt(header(h, DeadLetterHeaders.SOURCE_PARTITION)));
            source.put("offset", Long.parseLong(header(h, DeadLetterHeaders.SOURCE_OFFSET)));
            source.put("timestamp", Long.parseLong(header(h, DeadLetterHeaders.SOURCE_TIMESTAMP)));
        }
        if (r.key() == null) {
            line.putNull("key");
        } else {
            line.put("key", Base64.getEncoder().encodeToString(r.key()));
        }
        line.put("value", Base64.getEncoder().encodeToString(r.value()));
        line.put("schema_fingerprint", header(h, DeadLetterHeaders.SCHEMA_FINGERPRINT));
        return line;
    }

    private static String header(Headers headers, String name) {
        var h = headers.lastHeader(name);
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
