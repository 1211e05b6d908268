package io.tfstream.payload;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.proto.v1.TensorBatch;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A {@code tfstream.v1.TensorBatch} kept as its two serialized halves: the tensors and rows written
 * straight from the columns ({@link TensorBatchWriter}) and a small message of the metadata
 * (fingerprint, sources, batch id, window, parts) without tensors. The wire message is the two
 * concatenated ({@link #toByteArray}); the metadata can be replaced (numbering, ids) without
 * touching the tensors.
 *
 * <p>{@code key} is not part of the message: it is the grouping key the batch's records share
 * (event-time windows are grouped by one), as the bytes a Kafka writer may use as the message key,
 * or null when the batch has none.
 */
@PublicEvolving
public record EncodedTensorBatch(byte[] tensors, TensorBatch meta, byte[] key) {
    public EncodedTensorBatch {
        Objects.requireNonNull(tensors, "tensors");
        Objects.requireNonNull(meta, "meta");
        if (meta.getTensorsCount() > 0) {
            throw new IllegalArgumentException("the metadata must not hold tensors");
        }
    }

    /** A payload without a grouping key. */
    public EncodedTensorBatch(byte[] tensors, TensorBatch meta) {
        this(tensors, meta, null);
    }

    /** The whole message's size in bytes. */
    public int serializedSize() {
        return tensors.length + meta.getSerializedSize();
    }

    /** The whole message. */
    public byte[] toByteArray() {
        byte[] m = meta.toByteArray();
        byte[] out = new byte[tensors.length + m.length];
        System.arraycopy(tensors, 0, out, 0, tensors.length);
        System.arraycopy(m, 0, out, tensors.length, m.length);
        return out;
    }

    /** The whole message parsed (for tests and tools; the job never needs it). */
    public TensorBatch toMessage() {
        try {
            return TensorBatch.parseFrom(toByteArray());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("a written payload does not parse", e);
        }
    }

    /** The same tensors and key with other metadata. */
    public EncodedTensorBatch withMeta(TensorBatch newMeta) {
        return new EncodedTensorBatch(tensors, newMeta, key);
    }

    /** The same message with grouping key {@code newKey} (null: none). */
    public EncodedTensorBatch withKey(byte[] newKey) {
        return new EncodedTensorBatch(tensors, meta, newKey);
    }

    /** The rows (the metadata repeats the tensors half's row count). */
    /**
     * The batch's tensors, keyed by feature name: of Examples, or of SequenceExamples with the
     * prefix of their part ({@code context/}, {@code feature_list/}, {@code feature_list_lengths/})
     * kept. A feature name with {@code /indices}, {@code /values} and {@code /dense_shape} siblings
     * is one {@link io.tfstream.tensor.SparseTensor}; one with {@code /values} and {@code
     * /row_splits} is one {@link io.tfstream.tensor.RaggedTensor}; any other is a {@link
     * io.tfstream.tensor.DenseTensor}.
     *
     * @throws IllegalArgumentException when a tensor's content does not match its shape or dtype,
     *     or decoding would take more than 1024 times the payload's bytes (at least 64 MiB)
     */
    public java.util.SortedMap<String, io.tfstream.tensor.Tensor> decode() {
        return TensorBatchCodec.decode(toMessage(), "");
    }

    public long rows() {
        return meta.getRows();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EncodedTensorBatch e
                && java.util.Arrays.equals(tensors, e.tensors)
                && meta.equals(e.meta)
                && java.util.Arrays.equals(key, e.key);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * java.util.Arrays.hashCode(tensors) + meta.hashCode())
                + java.util.Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "EncodedTensorBatch{" + serializedSize() + " bytes, " + meta + "}";
    }
}
