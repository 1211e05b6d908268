package io.tfstream.operators.source;

import io.tfstream.api.model.SourceRecord;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Keeps everything of a Kafka record: value, key, headers, topic, partition, offset, timestamp. No
 * decoding happens here: the batch-and-parse operator parses values in batches. A tombstone (null
 * value) becomes an empty value, which the parser then judges like any other record.
 */
@Internal
public final class SourceRecordDeserializer
        implements KafkaRecordDeserializationSchema<SourceRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<SourceRecord> out) {
        Headers headers = r.headers();
        Header[] all = headers.toArray();
        String[] keys = new String[all.length];
        byte[][] values = new byte[all.length][];
        for (int i = 0; i < all.length; i++) {
            keys[i] = all[i].key();
            values[i] = all[i].value();
        }
        out.collect(
                new SourceRecord(
                        r.value() == null ? new byte[0] : r.value(),
                        r.key(),
                        keys,
                        values,
                        r.topic(),
                        r.partition(),
                        r.offset(),
                        r.timestamp()));
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return SourceRecordSerializer.typeInfo();
    }
}
