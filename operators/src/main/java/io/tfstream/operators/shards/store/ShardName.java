package io.tfstream.operators.shards.store;

import io.tfstream.text.Quoted;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * The file name of a shard, {@code <prefix>-<jobId>-<run>-<subtask>-<counter><suffix>}: the job
 * that opened it ({@code jobId}, Flink's 32 lower-case hex digits), the writer run ({@code run}: 16
 * random hex digits drawn by every writer instance, so that two runs never name a new shard alike,
 * whatever they restored and whatever job id they have), the writer subtask and a per-run counter.
 * Object stores list in-progress uploads without metadata, so {@code tfstream shards uploads} reads
 * who opened an upload from its name alone.
 *
 * <p>Shards written before runs existed carry a decimal checkpoint epoch in the run's place; {@link
 * #parse} reads both. Numbers are decimal without leading zeros, so {@link #parse} accepts exactly
 * what {@link #format} produces. The prefix may contain '-': parsing strips the known prefix first.
 */
@Internal
public record ShardName(
        String prefix, String jobId, String run, int subtask, long counter, String suffix) {
    private static final int RUN_DIGITS = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    public ShardName {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(suffix, "suffix");
        if (prefix.isEmpty() || prefix.indexOf('/') >= 0) {
            throw new IllegalArgumentException(
                    "shard name prefix must be non-empty without '/', got '"
                            + Quoted.cut(prefix)
                            + "'");
        }
        if (!isHex(jobId, 32)) {
            throw new IllegalArgumentException(
                    "job id must be 32 lower-case hex digits, got '" + Quoted.cut(jobId) + "'");
        }
        if (!isRun(run)) {
            throw new IllegalArgumentException(
                    "run must be 16 lower-case hex digits or a decimal epoch, got '"
                            + Quoted.cut(run)
                            + "'");
        }
        if (subtask < 0 || counter < 0) {
            throw new IllegalArgumentException(
                    "subtask and counter must be >= 0, got " + subtask + ", " + counter);
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

    /** A fresh run: 16 random lower-case hex digits. */
    public static String newRun() {
        return HexFormat.of().toHexDigits(RANDOM.nextLong());
    }

    public String format() {
        return prefix + '-' + jobId + '-' + run + '-' + subtask + '-' + counter + suffix;
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
                .map(n -> new ShardName(n.prefix, n.jobId, n.run, n.subtask, n.counter, suffix));
    }

    /**
     * The shard name {@code fileName} spells with this prefix and any suffix that starts with a
     * character other than a digit (the shard's compression may vary between runs), or empty.
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
        if (!isHex(jobId, 32)) {
            return Optional.empty();
        }
        pos += 33;
        int runEnd = fileName.indexOf('-', pos);
        if (runEnd < 0 || !isRun(fileName.substring(pos, runEnd))) {
            return Optional.empty();
        }
        String run = fileName.substring(pos, runEnd);
        pos = runEnd + 1;
        long[] numbers = new long[2];
        for (int i = 0; i < 2; i++) {
            int end = pos;
            while (end < fileName.length() && Character.isDigit(fileName.charAt(end))) {
                end++;
            }
            if (!isDecimal(fileName.substring(pos, end))) {
                return Optional.empty();
            }
            numbers[i] = Long.parseLong(fileName, pos, end, 10);
            if (i == 0) {
                if (end >= fileName.length() || fileName.charAt(end) != '-') {
                    return Optional.empty();
                }
                end++;
            }
            pos = end;
        }
        String suffix = fileName.substring(pos);
        if (numbers[0] > Integer.MAX_VALUE || suffix.indexOf('/') >= 0) {
            return Optional.empty();
        }
        return Optional.of(new ShardName(prefix, jobId, run, (int) numbers[0], numbers[1], suffix));
    }

    /** 16 hex digits (a run), or a decimal epoch of shards named before runs existed. */
    private static boolean isRun(String s) {
        return isHex(s, RUN_DIGITS) || isDecimal(s);
    }

    /** No empty, signed, zero-padded or overflowing numbers: format() never writes them. */
    private static boolean isDecimal(String s) {
        int len = s.length();
        if (len == 0 || len > 18 || (len > 1 && s.charAt(0) == '0')) {
            return false;
        }
        return s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean isHex(String s, int digits) {
        if (s.length() != digits) {
            return false;
        }
        for (int i = 0; i < digits; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
