package io.tfstream.tfrecord;

import java.util.OptionalLong;

/**
 * A damaged stretch of a TFRecord stream that a reader in skip mode passed over before it found the
 * next valid record. TensorFlow itself stops at the first damage; skipping is an opt-in recovery
 * ({@link TfRecordReadOptions#skipDamaged}).
 *
 * @param offset first skipped byte in the decompressed record stream
 * @param length number of bytes skipped
 * @param recordIndex index the next good record gets (records before the damage are counted)
 * @param damage the error that started the skip; its reason says what was wrong
 * @param head the first bytes of the region, as many as {@link TfRecordReadOptions#skipDamaged(
 *     java.util.function.Consumer, int)} asked to keep (empty otherwise)
 * @param recordsLost the records the region held, when its record headers can be followed from its
 *     start to its end (a record cut short by the end of the stream counts); empty when they
 *     cannot, e.g. after a header whose length CRC fails or over bytes that were never records
 */
public record SkippedRegion(
        long offset,
        long length,
        long recordIndex,
        CorruptRecordException damage,
        byte[] head,
        OptionalLong recordsLost) {
    private static final byte[] NONE = new byte[0];

    public SkippedRegion {
        head = head == null ? NONE : head;
        recordsLost = recordsLost == null ? OptionalLong.empty() : recordsLost;
    }

    /** A region without its bytes, its records not counted. */
    public SkippedRegion(
            long offset, long length, long recordIndex, CorruptRecordException damage) {
        this(offset, length, recordIndex, damage, NONE, OptionalLong.empty());
    }
}
