package io.tfstream.shards;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.tfrecord.Compression;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The manifest committed beside each finished shard as {@code <shard>.manifest.json}: what the
 * shard holds (records, record bytes), how it is stored (file bytes, compression, CRC32C of the
 * whole file as stored), which schema accepted its records, their event-time range, and per source
 * (Kafka topic partition, or TFRecord file) the first and last offset and the record count.
 *
 * <p>JSON, one object: {@code shard}, {@code bucket}, {@code records}, {@code record_bytes}, {@code
 * bytes}, {@code compression} ({@code none|gzip|zlib}), {@code crc32c} (8 lowercase hex digits, the
 * plain CRC32C of the file's bytes), {@code schema_fingerprint}, {@code min_event_time_ms} / {@code
 * max_event_time_ms} (and ISO-8601 {@code min_event_time} / {@code max_event_time}), {@code
 * segments} (checkpoints the open shard was persisted across, plus one: for gzip the number of gzip
 * members at most), {@code sources}: {@code {"topic","partition","first_offset",
 * "last_offset","records"}} for Kafka, {@code {"file","first_byte_offset","last_byte_offset",
 * "records"}} for a file source; {@code schema} (when the sink found one): the copy of the schema
 * with that fingerprint, relative to the base path ({@code _tfstream/_schemas/_<fingerprint>/
 * _schema.pbtxt}); {@code statistics} (with {@code shards.statistics}): the file of the shard's
 * mergeable feature statistics, a name in the manifest's own directory ({@code
 * _<shard>.statistics}); {@code history}: {@code {"id","checkpoint"}}, the history that committed
 * the shard and the checkpoint it was committed with ({@link History}; absent in manifests of
 * versions before it).
 */
public record ShardManifest(
        String shard,
        String bucket,
        long records,
        long recordBytes,
        long bytes,
        Compression compression,
        long crc32c,
        String schemaFingerprint,
        Long minEventTimeMs,
        Long maxEventTimeMs,
        int segments,
        List<Source> sources,
        String schema,
        String statistics,
        History history) {
    /** The suffix of a manifest's file name, after the shard's own name. */
    public static final String SUFFIX = ".manifest.json";

    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper READER = new ObjectMapper();

    public ShardManifest {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(compression, "compression");
        sources = List.copyOf(sources);
    }

    /** One source's records in the shard. */
    public record Source(String topic, int partition, long first, long last, long records) {
        /** Whether this is a TFRecord file (then {@code topic} is its path, offsets are bytes). */
        public boolean isFile() {
            return partition == ShardStats.FILE_PARTITION;
        }
    }

    /**
     * Which history committed the shard: {@code id} names one run of a job from one start (a fresh
     * start or a restore from a snapshot; failovers within it keep it), {@code checkpoint} is the
     * id of the checkpoint whose completion commits the shard. A job restored from a snapshot lists
     * the shards of its ancestors' histories only up to the checkpoint it continues from ({@link
     * ShardSuccessMarker.Cut}), so shards a predecessor committed after it are not in its markers.
     */
    public record History(String id, long checkpoint) {
        public History {
            Objects.requireNonNull(id, "id");
        }
    }

    /** The manifest of a shard written from {@code stats}. */
    public static ShardManifest of(
            String shard,
            String bucket,
            ShardStats stats,
            long bytes,
            Compression compression,
            long crc32c,
            String schemaFingerprint,
            int segments) {
        List<Source> sources = new ArrayList<>();
        for (ShardStats.SourceRange r : stats.sources()) {
            sources.add(new Source(r.topic(), r.partition(), r.first(), r.last(), r.records()));
        }
        return new ShardManifest(
                shard,
                bucket,
                stats.records(),
                stats.recordBytes(),
                bytes,
                compression,
                crc32c,
                schemaFingerprint,
                stats.minEventTime(),
                stats.maxEventTime(),
                segments,
                sources,
                null,
                null,
                null);
    }

    /** This manifest naming the schema copy at {@code schema} (relative to the base path). */
    public ShardManifest withSchema(String schema) {
        return with(schema, statistics, history);
    }

    /**
     * This manifest naming its shard's statistics file {@code statistics} (a name in the manifest's
     * directory).
     */
    public ShardManifest withStatistics(String statistics) {
        return with(schema, statistics, history);
    }

    /** This manifest saying which history committed its shard ({@code null}: not known). */
    public ShardManifest withHistory(History history) {
        return with(schema, statistics, history);
    }

    private ShardManifest with(String schema, String statistics, History history) {
        return new ShardManifest(
                shard,
                bucket,
                records,
                recordBytes,
                bytes,
                compression,
                crc32c,
                schemaFingerprint,
                minEventTimeMs,
                maxEventTimeMs,
                segments,
                sources,
                schema,
                statistics,
                history);
    }

    /** The manifest's file name for shard file name {@code shard}. */
    public static String fileNameOf(String shard) {
        return shard + SUFFIX;
    }

    /** Whether file name {@code name} is a shard manifest's. */
    public static boolean isManifest(String name) {
        return name.endsWith(SUFFIX);
    }

    /** The CRC32C as written in the JSON: 8 lowercase hex digits. */
    public String crc32cHex() {
        return String.format(Locale.ROOT, "%08x", crc32c);
    }

    /** The manifest as one line of JSON. */
    public String toJson() {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("shard", shard);
            g.writeStringField("bucket", bucket);
            g.writeNumberField("records", records);
            g.writeNumberField("record_bytes", recordBytes);
            g.writeNumberField("bytes", bytes);
            g.writeStringField("compression", compression.name().toLowerCase(Locale.ROOT));
            g.writeStringField("crc32c", crc32cHex());
            g.writeStringField("schema_fingerprint", schemaFingerprint);
            writeTime(g, "min_event_time", minEventTimeMs);
            writeTime(g, "max_event_time", maxEventTimeMs);
            g.writeNumberField("segments", segments);
            g.writeArrayFieldStart("sources");
            for (Source s : sources) {
                g.writeStartObject();
                if (s.isFile()) {
                    g.writeStringField("file", s.topic());
                    g.writeNumberField("first_byte_offset", s.first());
                    g.writeNumberField("last_byte_offset", s.last());
                } else {
                    g.writeStringField("topic", s.topic());
                    g.writeNumberField("partition", s.partition());
                    g.writeNumberField("first_offset", s.first());
                    g.writeNumberField("last_offset", s.last());
                }
                g.writeNumberField("records", s.records());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (schema != null) {
                g.writeStringField("schema", schema);
            }
            if (statistics != null) {
                g.writeStringField("statistics", statistics);
            }
            if (history != null) {
                g.writeObjectFieldStart("history");
                g.writeStringField("id", history.id());
                g.writeNumberField("checkpoint", history.checkpoint());
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("writing JSON to a string failed", e);
        }
        return w.toString();
    }

    private static void writeTime(JsonGenerator g, String name, Long ms) throws IOException {
        if (ms == null) {
            g.writeNullField(name + "_ms");
            g.writeNullField(name);
        } else {
            g.writeNumberField(name + "_ms", ms);
            g.writeStringField(name, Instant.ofEpochMilli(ms).toString());
        }
    }

    /**
     * Reads a manifest.
     *
     * @throws IOException when {@code json} is not a manifest (the message names the field)
     */
    public static ShardManifest fromJson(String json) throws IOException {
        JsonNode n = READER.readTree(json);
        if (n == null || !n.isObject()) {
            throw new IOException("a shard manifest must be a JSON object");
        }
        List<Source> sources = new ArrayList<>();
        for (JsonNode s : required(n, "sources")) {
            if (s.has("file")) {
                sources.add(
                        new Source(
                                text(s, "file"),
                                ShardStats.FILE_PARTITION,
                                number(s, "first_byte_offset"),
                                number(s, "last_byte_offset"),
                                number(s, "records")));
            } else {
                sources.add(
                        new Source(
                                text(s, "topic"),
                                (int) number(s, "partition"),
                                number(s, "first_offset"),
                                number(s, "last_offset"),
                                number(s, "records")));
            }
        }
        String crc = text(n, "crc32c");
        Compression compression;
        try {
            compression = Compression.valueOf(text(n, "compression").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IOException("unknown compression in shard manifest: " + n.get("compression"));
        }
        try {
            return new ShardManifest(
                    text(n, "shard"),
                    text(n, "bucket"),
                    number(n, "records"),
                    number(n, "record_bytes"),
                    number(n, "bytes"),
                    compression,
                    Long.parseLong(crc, 16),
                    n.path("schema_fingerprint").isNull() ? null : text(n, "schema_fingerprint"),
                    optionalNumber(n, "min_event_time_ms"),
                    optionalNumber(n, "max_event_time_ms"),
                    // manifests of the compacting sink (before segments) said "parts"
                    (int) number(n, n.has("segments") ? "segments" : "parts"),
                    sources,
                    n.hasNonNull("schema") ? text(n, "schema") : null,
                    n.hasNonNull("statistics") ? text(n, "statistics") : null,
                    n.hasNonNull("history")
                            ? new History(
                                    text(n.get("history"), "id"),
                                    number(n.get("history"), "checkpoint"))
                            : null);
        } catch (NumberFormatException e) {
            throw new IOException("crc32c of a shard manifest must be hex, got '" + crc + "'");
        }
    }

    private static JsonNode required(JsonNode n, String field) throws IOException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new IOException("shard manifest has no '" + field + "'");
        }
        return v;
    }

    private static String text(JsonNode n, String field) throws IOException {
        JsonNode v = required(n, field);
        if (!v.isTextual()) {
            throw new IOException("'" + field + "' of a shard manifest must be a string");
        }
        return v.asText();
    }

    private static long number(JsonNode n, String field) throws IOException {
        JsonNode v = required(n, field);
        if (!v.isIntegralNumber()) {
            throw new IOException("'" + field + "' of a shard manifest must be an integer");
        }
        return v.asLong();
    }

    private static Long optionalNumber(JsonNode n, String field) throws IOException {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : number(n, field);
    }
}
