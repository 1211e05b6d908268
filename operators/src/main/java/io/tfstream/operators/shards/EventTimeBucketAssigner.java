package io.tfstream.operators.shards;

import io.tfstream.api.model.SourceRecord;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;

/**
 * Buckets shards by the record's <em>event time</em> (the stream record's timestamp), formatted
 * with a {@link DateTimeFormatter} pattern in a time zone: by default {@code dt=2026-11-24/hour=17}
 * in UTC. {@link FileSink}'s own {@code DateTimeBucketAssigner} uses processing time, which puts
 * late or replayed records into the wrong hour. A record without a timestamp falls back to
 * processing time.
 */
@Internal
public final class EventTimeBucketAssigner implements BucketAssigner<SourceRecord, String> {
    private static final long serialVersionUID = 1L;

    /** {@code dt=yyyy-MM-dd/hour=HH}: the default of {@code shards.bucket-pattern}. */
    public static final String DEFAULT_PATTERN =
            io.tfstream.api.options.ShardOptions.BUCKET_PATTERN.defaultValue();

    private final String pattern;
    private final String zone;
    private final long maxSkewMillis;
    private transient DateTimeFormatter formatter;
    private transient boolean cacheBySecond;
    private transient long lastSecond;
    private transient String lastBucket;

    /**
     * @param maxSkew an event time further than this from the current processing time is replaced
     *     by the processing time; null: event time always
     * @throws IllegalArgumentException when the pattern or zone is invalid
     */
    public EventTimeBucketAssigner(String pattern, ZoneId zone, java.time.Duration maxSkew) {
        this.pattern = Objects.requireNonNull(pattern, "pattern");
        this.zone = zone.getId();
        this.maxSkewMillis = maxSkew == null ? Long.MAX_VALUE : maxSkew.toMillis();
        DateTimeFormatter.ofPattern(pattern).withZone(zone).format(Instant.EPOCH);
    }

    @Override
    public String getBucketId(SourceRecord record, Context context) {
        if (formatter == null) {
            formatter = DateTimeFormatter.ofPattern(pattern).withZone(ZoneId.of(zone));
            // Formatting per record is costly; a pattern without fractions of a second gives one
            // bucket per whole second, so the last second's bucket is reused.
            cacheBySecond = !pattern.replaceAll("'[^']*'", "").matches(".*[SnNA].*");
            lastSecond = Long.MIN_VALUE;
        }
        long t = bucketTime(context.timestamp(), context.currentProcessingTime(), maxSkewMillis);
        if (cacheBySecond) {
            long second = Math.floorDiv(t, 1000);
            if (second != lastSecond) {
                lastSecond = second;
                lastBucket = formatter.format(Instant.ofEpochMilli(t));
            }
            return lastBucket;
        }
        return formatter.format(Instant.ofEpochMilli(t));
    }

    /**
     * The instant a record is bucketed by: its event time {@code ts}, or {@code now} when it has
     * none or it is further than {@code maxSkewMillis} from now.
     */
    static long bucketTime(Long ts, long now, long maxSkewMillis) {
        // In double: the distance between Long.MIN/MAX_VALUE timestamps and now overflows a long.
        return ts == null || Math.abs((double) ts - now) > maxSkewMillis ? now : ts;
    }

    @Override
    public SimpleVersionedSerializer<String> getSerializer() {
        return SimpleVersionedStringSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "EventTimeBucketAssigner{" + pattern + " in " + zone + "}";
    }
}
