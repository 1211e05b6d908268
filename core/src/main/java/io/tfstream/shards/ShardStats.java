package io.tfstream.shards;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a shard holds, gathered as its records are written: record count and bytes, event-time
 * range, and per source (Kafka topic partition, or TFRecord file) the first and last offset and the
 * record count. Mergeable (a copy is taken for each checkpoint) and serializable with {@link
 * #writeTo} / {@link #readFrom}, so it can travel in checkpointed state. Not thread-safe.
 */
public final class ShardStats {
    /** The partition of records read from a TFRecord file (offsets are then byte offsets). */
    public static final int FILE_PARTITION = -1;

    private static final int FORMAT = 1;
    private static final int MAX_SOURCES = 1 << 20;

    private long records;
    private long recordBytes;
    private long minEventTime = Long.MAX_VALUE;
    private long maxEventTime = Long.MIN_VALUE;
    private final TreeMap<SourceKey, SourceRange> sources = new TreeMap<>();
    private String lastTopic;
    private int lastPartition;
    private SourceRange lastRange;

    /** Adds one record of {@code bytes} bytes from {@code topic}/{@code partition} at an offset. */
    public void add(String topic, int partition, long offset, long bytes, long eventTime) {
        records++;
        recordBytes += bytes;
        minEventTime = Math.min(minEventTime, eventTime);
        maxEventTime = Math.max(maxEventTime, eventTime);
        // Records of one part mostly come from one source in a row: skip the map lookup then.
        if (lastRange == null || lastPartition != partition || !lastTopic.equals(topic)) {
            SourceKey key = new SourceKey(topic, partition);
            lastRange = sources.computeIfAbsent(key, k -> new SourceRange(k, offset));
            lastTopic = topic;
            lastPartition = partition;
        }
        lastRange.add(offset);
    }

    /** Adds everything of {@code other} to this. */
    public void merge(ShardStats other) {
        records += other.records;
        recordBytes += other.recordBytes;
        minEventTime = Math.min(minEventTime, other.minEventTime);
        maxEventTime = Math.max(maxEventTime, other.maxEventTime);
        for (SourceRange r : other.sources.values()) {
            SourceRange mine = sources.get(r.key);
            if (mine == null) {
                sources.put(r.key, r.copy());
            } else {
                mine.merge(r);
            }
        }
        lastRange = null;
    }

    public long records() {
        return records;
    }

    /** Sum of the records' own lengths (without TFRecord framing or compression). */
    public long recordBytes() {
        return recordBytes;
    }

    /** Smallest event time (epoch millis), or null without records. */
    public Long minEventTime() {
        return records == 0 ? null : minEventTime;
    }

    /** Largest event time (epoch millis), or null without records. */
    public Long maxEventTime() {
        return records == 0 ? null : maxEventTime;
    }

    /** Per source, ordered by topic (or file) and partition. */
    public List<SourceRange> sources() {
        return Collections.unmodifiableList(new ArrayList<>(sources.values()));
    }

    /** Writes this in a versioned binary form. */
    public void writeTo(DataOutput out) throws IOException {
        out.writeByte(FORMAT);
        out.writeLong(records);
        out.writeLong(recordBytes);
        out.writeLong(minEventTime);
        out.writeLong(maxEventTime);
        out.writeInt(sources.size());
        for (SourceRange r : sources.values()) {
            out.writeUTF(r.key.topic);
            out.writeInt(r.key.partition);
            out.writeLong(r.first);
            out.writeLong(r.last);
            out.writeLong(r.records);
        }
    }

    /** Reads what {@link #writeTo} wrote; rejects other formats. */
    public static ShardStats readFrom(DataInput in) throws IOException {
        int format = in.readByte();
        if (format != FORMAT) {
            throw new IOException("unknown shard statistics format " + format);
        }
        ShardStats s = new ShardStats();
        s.records = in.readLong();
        s.recordBytes = in.readLong();
        s.minEventTime = in.readLong();
        s.maxEventTime = in.readLong();
        int n = in.readInt();
        if (n < 0 || n > MAX_SOURCES) {
            throw new IOException("bad source count " + n + " in shard statistics");
        }
        for (int i = 0; i < n; i++) {
            SourceKey key = new SourceKey(in.readUTF(), in.readInt());
            SourceRange r = new SourceRange(key, in.readLong());
            r.last = in.readLong();
            r.records = in.readLong();
            s.sources.put(key, r);
        }
        return s;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ShardStats)) {
            return false;
        }
        ShardStats s = (ShardStats) o;
        return records == s.records
                && recordBytes == s.recordBytes
                && minEventTime == s.minEventTime
                && maxEventTime == s.maxEventTime
                && sources.equals(s.sources);
    }

    @Override
    public int hashCode() {
        return Objects.hash(records, recordBytes, minEventTime, maxEventTime, sources);
    }

    @Override
    public String toString() {
        return records + " records, " + recordBytes + " bytes, sources " + sources.values();
    }

    /** A source: a Kafka topic partition, or a file ({@link #FILE_PARTITION}). */
    record SourceKey(String topic, int partition) implements Comparable<SourceKey> {
        @Override
        public int compareTo(SourceKey o) {
            int c = topic.compareTo(o.topic);
            return c != 0 ? c : Integer.compare(partition, o.partition);
        }
    }

    /** The first and last offset of one source's records in the shard, and how many there are. */
    public static final class SourceRange {
        private final SourceKey key;
        private long first;
        private long last;
        private long records;

        SourceRange(SourceKey key, long offset) {
            this.key = key;
            this.first = offset;
            this.last = offset;
        }

        void add(long offset) {
            first = Math.min(first, offset);
            last = Math.max(last, offset);
            records++;
        }

        void merge(SourceRange o) {
            first = Math.min(first, o.first);
            last = Math.max(last, o.last);
            records += o.records;
        }

        SourceRange copy() {
            SourceRange c = new SourceRange(key, first);
            c.last = last;
            c.records = records;
            return c;
        }

        /** The topic, or the file's path for a file source. */
        public String topic() {
            return key.topic;
        }

        public int partition() {
            return key.partition;
        }

        public boolean isFile() {
            return key.partition == FILE_PARTITION;
        }

        public long first() {
            return first;
        }

        public long last() {
            return last;
        }

        public long records() {
            return records;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SourceRange r
                    && key.equals(r.key)
                    && first == r.first
                    && last == r.last
                    && records == r.records;
        }

        @Override
        public int hashCode() {
            return Objects.hash(key, first, last, records);
        }

        @Override
        public String toString() {
            return key.topic + "-" + key.partition + "[" + first + ".." + last + "]x" + records;
        }
    }
}
