package io.tfstream.tfrecord;

/**
 * A damaged stretch of a TFRecord stream that a reader in skip mode passed over before it found the
 * next valid record. TensorFlow itself stops at the first damage; skipping is an opt-in recovery
 * ({@link TfRecordReadOptions#skipDamaged}).
 *
 * @param offset first skipped byte in the decompressed record stream
 * @param length number of bytes skipped
 * @param recordIndex index the next good record gets (records before the damage are counted)
 * @param damage the error that started the skip; its reason says what was wrong
 */
public record SkippedRegion(
        long offset, long length, long recordIndex, CorruptRecordException damage) {}
