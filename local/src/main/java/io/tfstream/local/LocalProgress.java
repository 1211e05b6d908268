package io.tfstream.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.JobID;

/**
 * One refreshing progress line on stderr while the local job runs, from the job's metrics over the
 * web UI's REST API: records in (and per second), accepted, dead-lettered, payloads, shards
 * finished, completed checkpoints. Quiet when stderr is not a terminal.
 */
final class LocalProgress implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] METRICS = {
        "recordsIn", "accepted", "deadLettered", "payloads", "shardsFinished"
    };

    private final URI rest;
    private final JobID job;
    private final PrintWriter err;
    private final long total;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Thread thread;
    private final long start = System.nanoTime();
    private volatile boolean done;
    private boolean printed;

    LocalProgress(URI rest, JobID job, PrintWriter err, boolean enabled, long total) {
        this.rest = rest;
        this.job = job;
        this.err = err;
        this.total = total;
        this.thread = new Thread(this::loop, "tfstream-local-progress");
        thread.setDaemon(true);
        if (enabled) {
            thread.start();
        }
    }

    private void loop() {
        while (!done) {
            try {
                Thread.sleep(1000);
                String line = line();
                if (line != null && !done) {
                    synchronized (this) {
                        err.print("\r" + line + "   ");
                        err.flush();
                        printed = true;
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // The job is starting or finishing: the next refresh tries again.
            }
        }
    }

    /** The progress line, or null while the job's metrics are not there yet. */
    private String line() throws Exception {
        Map<String, Double> sums = new HashMap<>();
        JsonNode jobInfo = get("/jobs/" + job);
        for (JsonNode v : jobInfo.path("vertices")) {
            String base =
                    "/jobs/" + job + "/vertices/" + v.path("id").asText() + "/subtasks/metrics";
            List<String> wanted = new ArrayList<>();
            for (JsonNode m : get(base)) {
                String id = m.path("id").asText();
                for (String name : METRICS) {
                    if (id.endsWith(".tfstream." + name)) {
                        wanted.add(id);
                    }
                }
            }
            if (wanted.isEmpty()) {
                continue;
            }
            String query = URLEncoder.encode(String.join(",", wanted), StandardCharsets.UTF_8);
            for (JsonNode m : get(base + "?agg=sum&get=" + query)) {
                String id = m.path("id").asText();
                String name = id.substring(id.lastIndexOf('.') + 1);
                sums.merge(name, m.path("sum").asDouble(), Double::sum);
            }
        }
        if (!sums.containsKey("recordsIn")) {
            return null;
        }
        long checkpoints =
                get("/jobs/" + job + "/checkpoints").path("counts").path("completed").asLong();
        double seconds = (System.nanoTime() - start) / 1e9;
        long in = sums.getOrDefault("recordsIn", 0.0).longValue();
        return String.format(
                Locale.ROOT,
                "%.0f s: %d/%d records in (%.0f/s), %d accepted, %d dead-lettered, %d payloads,"
                        + " %d shards finished, %d checkpoints",
                seconds,
                in,
                total,
                seconds > 0 ? in / seconds : 0,
                sums.getOrDefault("accepted", 0.0).longValue(),
                sums.getOrDefault("deadLettered", 0.0).longValue(),
                sums.getOrDefault("payloads", 0.0).longValue(),
                sums.getOrDefault("shardsFinished", 0.0).longValue(),
                checkpoints);
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(rest.resolve(path))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + ": HTTP " + r.statusCode());
        }
        return JSON.readTree(r.body());
    }

    /** Ends the line. */
    void finish() {
        done = true;
        thread.interrupt();
        synchronized (this) {
            if (printed) {
                err.println();
                err.flush();
                printed = false;
            }
        }
    }

    @Override
    public void close() {
        finish();
    }
}
