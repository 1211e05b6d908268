package io.tfstream.operators.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The Kafka record of a payload: value, headers and the key of every {@link PayloadKeyMode}. */
class TensorBatchSerializationSchemaTest {
    private static final byte[] GROUP = {(byte) 0xff, 0, 'k'};

    private static final EncodedTensorBatch PAYLOAD =
            new EncodedTensorBatch(
                    new byte[] {16, 3},
                    TensorBatch.newBuilder()
                            .setRows(3)
                            .setBatchId("id")
                            .setSchemaFingerprint("fp")
                            .setPart(1)
                            .setParts(2)
                            .addSources(
                                    SourceRange.newBuilder()
                                            .setTopic("in")
                                            .setPartition(4)
                                            .setFirstOffset(7)
                                            .setLastOffset(9))
                            .addSources(SourceRange.newBuilder().setTopic("in").setPartition(5))
                            .build(),
                    GROUP);

    private static ProducerRecord<byte[], byte[]> write(
            EncodedTensorBatch payload, PayloadKeyMode mode) {
        // The context (parallelism, partitions) is not used: the producer's partitioner decides.
        return new TensorBatchSerializationSchema("out", mode).serialize(payload, null, 12L);
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void theValueIsTheWholeMessageWithItsHeaders() throws Exception {
        ProducerRecord<byte[], byte[]> r = write(PAYLOAD, PayloadKeyMode.NONE);
        assertEquals("out", r.topic());
        assertEquals(12L, r.timestamp());
        assertNull(r.partition());
        assertEquals(PAYLOAD.toMessage(), TensorBatch.parseFrom(r.value()));
        assertEquals("fp", header(r, TensorBatchSerializationSchema.FINGERPRINT));
        assertEquals("id", header(r, TensorBatchSerializationSchema.BATCH_ID));
        assertEquals("3", header(r, TensorBatchSerializationSchema.ROWS));
        assertEquals("1/2", header(r, TensorBatchSerializationSchema.PART));
    }

    @Test
    void anEarlyWindowPayloadsPartHeaderHasNoTotal() {
        TensorBatch.Builder window =
                PAYLOAD.meta().toBuilder().setWindowStartMs(1000).setWindowEndMs(2000);
        ProducerRecord<byte[], byte[]> early =
                write(PAYLOAD.withMeta(window.setPart(3).setParts(0).build()), PayloadKeyMode.NONE);
        assertEquals("3/?", header(early, TensorBatchSerializationSchema.PART));
        ProducerRecord<byte[], byte[]> whole =
                write(PAYLOAD.withMeta(window.setPart(0).setParts(1).build()), PayloadKeyMode.NONE);
        assertNull(whole.headers().lastHeader(TensorBatchSerializationSchema.PART));
        ProducerRecord<byte[], byte[]> unsplit =
                write(
                        PAYLOAD.withMeta(PAYLOAD.meta().toBuilder().setPart(0).setParts(0).build()),
                        PayloadKeyMode.NONE);
        assertNull(unsplit.headers().lastHeader(TensorBatchSerializationSchema.PART));
    }

    @Test
    void keyNoneIsNoKey() {
        assertNull(write(PAYLOAD, PayloadKeyMode.NONE).key());
    }

    @Test
    void keySourcePartitionIsTheFirstSourceRange() {
        assertArrayEquals(
                "in-4".getBytes(StandardCharsets.UTF_8),
                write(PAYLOAD, PayloadKeyMode.SOURCE_PARTITION).key());
        EncodedTensorBatch noSources =
                PAYLOAD.withMeta(PAYLOAD.meta().toBuilder().clearSources().build());
        assertNull(write(noSources, PayloadKeyMode.SOURCE_PARTITION).key());
    }

    @Test
    void keyBatchKeyIsTheGroupingKeyByteForByte() {
        assertArrayEquals(GROUP, write(PAYLOAD, PayloadKeyMode.BATCH_KEY).key());
        assertNull(write(PAYLOAD.withKey(null), PayloadKeyMode.BATCH_KEY).key());
    }
}
