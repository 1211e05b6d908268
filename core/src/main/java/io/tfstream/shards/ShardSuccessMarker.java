package io.tfstream.shards;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code _SUCCESS} marker of an event-time bucket: written by the shard sink once the watermark
 * has passed the bucket's end plus {@code shards.success-delay} and every shard of the bucket is
 * committed. It lists the bucket's shards with their record counts and sizes (from their manifests)
 * and the totals. A late record that still reaches the bucket gets a new shard and the marker is
 * written again, listing it too. It lists only the shards of the jobs named in {@code jobs}: the
 * job that wrote it and those whose savepoints it continues; other jobs writing to the same path
 * are left out. An empty {@code jobs} (markers of earlier versions) lists every shard. Within those
 * jobs it lists only the shards of its own history ({@code histories}, see {@link Cut}): after a
 * rollback to an older snapshot, the shards a predecessor committed after that snapshot hold
 * records the restored job writes again, and are left out. With data splits there is one marker per
 * event-time bucket, naming each shard as {@code Split-<name>/<file>}: a shard's path is always
 * {@code <base>/<bucket>/<shard>}.
 *
 * <p>JSON: {@code {"bucket","end_ms","end","records","bytes","jobs":[...],"histories":[{"id",
 * "through"}],"shards":[{"shard","records","bytes"}]}}, shards sorted by name ({@code through}
 * absent for the history that wrote the marker); with {@code shards.statistics} also {@code
 * "statistics":[...]}: the bucket's statistics files, relative to the marker's directory, written
 * before it.
 */
public record ShardSuccessMarker(
        String bucket,
        long endMs,
        long records,
        long bytes,
        List<String> jobs,
        List<Cut> histories,
        List<Shard> shards,
        List<String> statistics) {
    /** The marker's file name. */
    public static final String FILE_NAME = "_SUCCESS";

    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper READER = new ObjectMapper();

    public ShardSuccessMarker {
        Objects.requireNonNull(bucket, "bucket");
        jobs = List.copyOf(jobs);
        histories = List.copyOf(histories);
        shards = List.copyOf(shards);
        statistics = List.copyOf(statistics);
    }

    /** A marker without statistics files. */
    public ShardSuccessMarker(
            String bucket,
            long endMs,
            long records,
            long bytes,
            List<String> jobs,
            List<Shard> shards) {
        this(bucket, endMs, records, bytes, jobs, List.of(), shards, List.of());
    }

    /** This marker naming the bucket's statistics files {@code files}. */
    public ShardSuccessMarker withStatistics(List<String> files) {
        return new ShardSuccessMarker(
                bucket, endMs, records, bytes, jobs, histories, shards, files);
    }

    /** This marker naming the histories {@code cuts} whose shards it lists. */
    public ShardSuccessMarker withHistories(List<Cut> cuts) {
        return new ShardSuccessMarker(
                bucket, endMs, records, bytes, jobs, cuts, shards, statistics);
    }

    /**
     * One history of the marker's lineage and how far it counts: its shards committed with
     * checkpoints up to {@code through} (the checkpoint a successor was restored from; {@link
     * Long#MAX_VALUE} for the history that writes the marker).
     */
    public record Cut(String id, long through) {
        public Cut {
            Objects.requireNonNull(id, "id");
        }

        /** Whether a shard committed by {@code h} belongs to this cut of the lineage. */
        public boolean holds(ShardManifest.History h) {
            return h != null && h.id().equals(id) && h.checkpoint() <= through;
        }
    }

    /** Whether a shard committed by {@code h} belongs to the lineage {@code cuts}. */
    public static boolean inLineage(List<Cut> cuts, ShardManifest.History h) {
        for (Cut c : cuts) {
            if (c.holds(h)) {
                return true;
            }
        }
        return false;
    }

    /** One shard of the bucket. */
    public record Shard(String shard, long records, long bytes) {}

    /**
     * The marker of {@code bucket} ending at {@code endMs}, written for {@code jobs}, listing the
     * shards of {@code manifests}.
     */
    public static ShardSuccessMarker of(
            String bucket, long endMs, List<String> jobs, List<ShardManifest> manifests) {
        List<Shard> shards = new ArrayList<>();
        long records = 0;
        long bytes = 0;
        for (ShardManifest m : manifests) {
            shards.add(new Shard(relativeName(bucket, m), m.records(), m.bytes()));
            records += m.records();
            bytes += m.bytes();
        }
        shards.sort((a, b) -> a.shard().compareTo(b.shard()));
        return new ShardSuccessMarker(bucket, endMs, records, bytes, jobs, shards);
    }

    /**
     * The shard of {@code m} named relative to {@code bucket}'s directory: its file name, or with
     * data splits {@code Split-<name>/<file name>}.
     */
    private static String relativeName(String bucket, ShardManifest m) {
        String own = m.bucket();
        if (own == null || own.equals(bucket)) {
            return m.shard();
        }
        String prefix = bucket.isEmpty() ? "" : bucket + "/";
        return own.startsWith(prefix)
                ? own.substring(prefix.length()) + "/" + m.shard()
                : m.shard();
    }

    /** The marker as one line of JSON. */
    public String toJson() {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("bucket", bucket);
            g.writeNumberField("end_ms", endMs);
            g.writeStringField(
                    "end",
                    endMs == Long.MAX_VALUE ? "unbounded" : Instant.ofEpochMilli(endMs).toString());
            g.writeNumberField("records", records);
            g.writeNumberField("bytes", bytes);
            g.writeArrayFieldStart("jobs");
            for (String j : jobs) {
                g.writeString(j);
            }
            g.writeEndArray();
            if (!histories.isEmpty()) {
                g.writeArrayFieldStart("histories");
                for (Cut c : histories) {
                    g.writeStartObject();
                    g.writeStringField("id", c.id());
                    if (c.through() != Long.MAX_VALUE) {
                        g.writeNumberField("through", c.through());
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeArrayFieldStart("shards");
            for (Shard s : shards) {
                g.writeStartObject();
                g.writeStringField("shard", s.shard());
                g.writeNumberField("records", s.records());
                g.writeNumberField("bytes", s.bytes());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (!statistics.isEmpty()) {
                g.writeArrayFieldStart("statistics");
                for (String f : statistics) {
                    g.writeString(f);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("writing JSON to a string failed", e);
        }
        return w.toString();
    }

    /**
     * Reads a marker.
     *
     * @throws IOException when {@code json} is not a marker
     */
    public static ShardSuccessMarker fromJson(String json) throws IOException {
        JsonNode n = READER.readTree(json);
        if (n == null || !n.isObject() || !n.path("shards").isArray()) {
            throw new IOException("a _SUCCESS marker is a JSON object with 'shards'");
        }
        List<Shard> shards = new ArrayList<>();
        for (JsonNode s : n.get("shards")) {
            shards.add(
                    new Shard(
                            s.path("shard").asText(),
                            s.path("records").asLong(),
                            s.path("bytes").asLong()));
        }
        List<String> jobs = new ArrayList<>();
        for (JsonNode j : n.path("jobs")) {
            jobs.add(j.asText());
        }
        List<Cut> histories = new ArrayList<>();
        for (JsonNode c : n.path("histories")) {
            histories.add(
                    new Cut(
                            c.path("id").asText(),
                            c.hasNonNull("through") ? c.get("through").asLong() : Long.MAX_VALUE));
        }
        List<String> statistics = new ArrayList<>();
        for (JsonNode f : n.path("statistics")) {
            statistics.add(f.asText());
        }
        return new ShardSuccessMarker(
                n.path("bucket").asText(),
                n.path("end_ms").asLong(),
                n.path("records").asLong(),
                n.path("bytes").asLong(),
                jobs,
                histories,
                shards,
                statistics);
    }
}
