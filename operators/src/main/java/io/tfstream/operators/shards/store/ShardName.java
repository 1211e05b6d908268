package io.tfstream.operators.shards.store;

import java.util.Objects;
import java.util.Optional;

/**
 * The file name of a shard, {@code <prefix>-<jobId>-<epoch>-<subtask>-<counter><suffix>}: it says
 * which job opened the shard ({@code jobId}, Flink's 32 lower-case hex digits), the first
 * checkpoint that can contain it ({@code epoch}: the last checkpoint the writer saw + 1), the
 * writer subtask and a per-writer counter. Object stores list in-progress uploads without metadata,
 * so ownership after a restore ({@link RestoreScope}) must be readable from the name alone.
 *
 * <p>Numbers are decimal without leading zeros, so {@link #parse} accepts exactly what {@link
 * #format} produces. The prefix may contain '-': parsing strips the known prefix first.
 */
public record ShardName(
        String prefix, String jobId, long epoch, int subtask, long counter, String suffix) {

    public ShardName {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(suffix, "suffix");
        if (prefix.isEmpty() || prefix.indexOf('/') >= 0) {
            throw new IllegalArgumentException(
                    "shard name prefix must be non-empty without '/', got '" + prefix + "'");
        }
        if (!isJobId(jobId)) {
            throw new IllegalArgumentException(
                    "job id must be 32 lower-case hex digits, got '" + jobId + "'");
        }
        if (epoch < 0 || subtask < 0 || counter < 0) {
            throw new IllegalArgumentException(
                    "epoch, subtask and counter must be >= 0, got "
                            + epoch
                            + ", "
                            + subtask
                            + ", "
                            + counter);
        }
        // A suffix starting with a digit would run into the counter and make parsing ambiguous.
        if (suffix.indexOf('/') >= 0
                || (!suffix.isEmpty() && Character.isDigit(suffix.charAt(0)))) {
            throw new IllegalArgumentException(
                    "shard name suffix must not contain '/' or start with a digit, got '"
                            + suffix
                            + "'");
        }
    }

    public String format() {
        return prefix + '-' + jobId + '-' + epoch + '-' + subtask + '-' + counter + suffix;
    }

    @Override
    public String toString() {
        return format();
    }

    /**
     * The shard name {@code fileName} (no directory) spells with exactly this prefix and suffix, or
     * empty when it is anything else.
     */
    public static Optional<ShardName> parse(String fileName, String prefix, String suffix) {
        if (!fileName.endsWith(suffix) || fileName.length() < suffix.length()) {
            return Optional.empty();
        }
        return parse(fileName.substring(0, fileName.length() - suffix.length()), prefix)
                .filter(n -> n.suffix().isEmpty())
                .map(n -> new ShardName(n.prefix, n.jobId, n.epoch, n.subtask, n.counter, suffix));
    }

    /**
     * The shard name {@code fileName} spells with this prefix and any suffix that starts with a
     * character other than a digit (the store's abort sweep: a restored job may have used another
     * compression, hence another suffix), or empty.
     */
    public static Optional<ShardName> parse(String fileName, String prefix) {
        if (prefix.isEmpty() || !fileName.startsWith(prefix + '-')) {
            return Optional.empty();
        }
        int pos = prefix.length() + 1;
        if (fileName.length() < pos + 33 || fileName.charAt(pos + 32) != '-') {
            return Optional.empty();
        }
        String jobId = fileName.substring(pos, pos + 32);
        if (!isJobId(jobId)) {
            return Optional.empty();
        }
        pos += 33;
        long[] numbers = new long[3];
        for (int i = 0; i < 3; i++) {
            int end = pos;
            while (end < fileName.length() && Character.isDigit(fileName.charAt(end))) {
                end++;
            }
            int len = end - pos;
            // No empty, signed, zero-padded or overflowing numbers: format() never writes them.
            if (len == 0 || len > 18 || (len > 1 && fileName.charAt(pos) == '0')) {
                return Optional.empty();
            }
            numbers[i] = Long.parseLong(fileName, pos, end, 10);
            if (i < 2) {
                if (end >= fileName.length() || fileName.charAt(end) != '-') {
                    return Optional.empty();
                }
                end++;
            }
            pos = end;
        }
        String suffix = fileName.substring(pos);
        if (numbers[1] > Integer.MAX_VALUE || suffix.indexOf('/') >= 0) {
            return Optional.empty();
        }
        return Optional.of(
                new ShardName(prefix, jobId, numbers[0], (int) numbers[1], numbers[2], suffix));
    }

    private static boolean isJobId(String s) {
        if (s.length() != 32) {
            return false;
        }
        for (int i = 0; i < 32; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
