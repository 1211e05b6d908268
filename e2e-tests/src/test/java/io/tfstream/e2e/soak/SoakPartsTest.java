package io.tfstream.e2e.soak;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.tfstream.job.InputCorpus;
import io.tfstream.parse.ParseLimits;
import io.tfstream.testing.WideProfileCorpus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's parts that need no cluster: its input, the S3 fault proxy, its trends and checks. */
class SoakPartsTest {
    @Test
    void brokenRecordsAreRejectedAndGoodOnesNameTheirSequenceNumber() {
        List<byte[]> values = new ArrayList<>();
        for (long seq = 0; seq < 1_000; seq++) {
            values.add(SoakRecords.value(seq));
        }
        List<InputCorpus.Input> judged =
                InputCorpus.judge("s", values, WideProfileCorpus.spec(), ParseLimits.defaults());
        int broken = 0;
        for (int seq = 0; seq < judged.size(); seq++) {
            InputCorpus.Input i = judged.get(seq);
            assertArrayEquals(("s" + seq).getBytes(StandardCharsets.UTF_8), i.key());
            assertEquals(seq, SoakRecords.seqOfKey(SoakRecords.key(seq)));
            if (SoakRecords.broken(seq)) {
                assertNotNull(i.reason(), "record " + seq + " must be dead-lettered");
                broken++;
            } else {
                assertNull(i.reason(), "record " + seq + ": " + i.error());
                assertEquals(seq, SoakRecords.seqOf(i.value()));
            }
        }
        assertEquals(10, broken);
        // computed again from the number alone, byte for byte
        assertArrayEquals(values.get(777), SoakRecords.value(777));
        assertEquals(-1, SoakRecords.seqOfKey("r-1".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theFaultProxyPassesSlowsRefusesAndResets() throws Exception {
        HttpServer upstream =
                HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        upstream.createContext(
                "/",
                x -> {
                    byte[] body = "object".getBytes(StandardCharsets.UTF_8);
                    x.sendResponseHeaders(200, body.length);
                    x.getResponseBody().write(body);
                    x.close();
                });
        upstream.start();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (FaultProxy proxy = new FaultProxy(upstream.getAddress().getPort(), 10)) {
            HttpRequest get =
                    HttpRequest.newBuilder(URI.create(proxy.endpoint() + "/bucket/key"))
                            .timeout(Duration.ofSeconds(30))
                            .build();
            HttpResponse<String> ok = http.send(get, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ok.statusCode());
            assertEquals("object", ok.body());

            proxy.mode(FaultProxy.Mode.SLOW);
            assertEquals("object", http.send(get, HttpResponse.BodyHandlers.ofString()).body());

            proxy.mode(FaultProxy.Mode.SLOW_DOWN);
            HttpResponse<String> slowDown = http.send(get, HttpResponse.BodyHandlers.ofString());
            assertEquals(503, slowDown.statusCode());
            assertTrue(slowDown.body().contains("<Code>SlowDown</Code>"), slowDown.body());

            proxy.mode(FaultProxy.Mode.RESET);
            assertThrows(
                    IOException.class, () -> http.send(get, HttpResponse.BodyHandlers.ofString()));
            // one 503, and at least one reset (the client may retry a GET once)
            assertTrue(proxy.refused() >= 2, Long.toString(proxy.refused()));

            proxy.mode(FaultProxy.Mode.PASS);
            assertEquals(200, http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode());
        } finally {
            upstream.stop(0);
        }
    }

    @Test
    void trendsAreTheLeastSquaresSlopeOverTheSecondHalf() {
        // heap flat at 100 MB in the second hour after a warm-up; checkpoints grow 6 MB an hour
        List<SoakSampler.Sample> samples =
                everyMinute(
                        120,
                        minute ->
                                Map.of(
                                        "JobManager heap after GC (MB)",
                                        minute < 60 ? (double) minute : 100,
                                        "checkpoint size (MB)",
                                        10 + minute / 10.0));
        List<SoakReport.Trend> trends = SoakReport.trends(samples);
        SoakReport.Trend size = trends.get(0);
        assertEquals("checkpoint size (MB)", size.figure());
        assertEquals(6.0, size.perHour(), 1e-9);
        assertEquals(19.0, size.mean(), 1e-9);
        SoakReport.Trend heap = trends.get(1);
        assertEquals("JobManager heap after GC (MB)", heap.figure());
        assertEquals(0.0, heap.perHour(), 1e-9);
        assertEquals(0.0, heap.first(), 1e-9);
        assertEquals(100.0, heap.last(), 1e-9);
    }

    @Test
    void theReportsSlopesLeaveTheDrainOutAsTheTrendCheckDoes(@TempDir Path dir) throws IOException {
        // heap flat at 200 MB through two hours of load, then 400 MB while the drain catches up
        List<SoakSampler.Sample> samples =
                everyMinute(
                        130,
                        minute ->
                                Map.of(
                                        "checkpoint size (MB)",
                                        80.0,
                                        "JobManager heap after GC (MB)",
                                        50.0,
                                        "TaskManager heap after GC (MB, max)",
                                        minute > 120 ? 400.0 : 200));
        long loadEnd = 120 * 60_000L;
        SoakReport.Run run =
                new SoakReport.Run(
                        "t", "c", 0, loadEnd, 1, 1, 0, List.of(), List.of(), samples, List.of(),
                        List.of(), List.of());
        String report = Files.readString(SoakReport.write(run, dir));
        assertTrue(
                report.contains(
                        "| TaskManager heap after GC (MB, max) | 200.00 | 200.00 | 200.00 | +0.00 |"
                                + " +0.0% |"),
                report);
        assertTrue(
                SoakITCase.trendsFlat(SoakReport.load(samples, loadEnd), Duration.ofHours(2))
                        .contains("TaskManager heap after GC (MB, max) +0.0%"));
        List<String> csv = Files.readAllLines(dir.resolve("samples.csv"));
        assertEquals(132, csv.size());
        assertTrue(csv.get(0).startsWith("minute,\"checkpoint size (MB)\","), csv.get(0));
        assertTrue(csv.get(131).startsWith("130.00,"), csv.get(131));
        assertTrue(csv.get(131).contains(",400.00"), csv.get(131));
    }

    @Test
    void checkpointsMayNotGrowPastOneAndAHalfTimesTheirEarlySize() {
        assertTrue(
                SoakITCase.checkpointGrowth(sizes(2, 2, 2, 2, 2, 3.9, 3.9, 4), 0)
                        .startsWith("checkpoints flat"));
        String grew = SoakITCase.checkpointGrowth(sizes(2, 2, 2, 2, 2, 4.1, 4.2, 4.3), 0);
        assertTrue(grew.startsWith("checkpoints grew"), grew);
        assertTrue(grew.contains("4.20 MB"), grew);
    }

    @Test
    void heapAndCheckpointsMayNotRiseOverTheSecondHalfOfAnHourOrMore() {
        // checkpoints rise 4% of their mean an hour; the TaskManagers' heap 10%
        List<SoakSampler.Sample> samples =
                everyMinute(
                        120,
                        minute ->
                                Map.of(
                                        "checkpoint size (MB)",
                                        30 + 1.2 * minute / 60,
                                        "JobManager heap after GC (MB)",
                                        50.0 + minute % 2,
                                        "TaskManager heap after GC (MB, max)",
                                        100 + 10.0 * minute / 60));
        String twoHours = SoakITCase.trendsFlat(samples, Duration.ofHours(2));
        assertTrue(twoHours.startsWith("rising"), twoHours);
        assertTrue(twoHours.contains("TaskManager heap after GC (MB, max) +8.7%"), twoHours);
        assertFalse(twoHours.contains("checkpoint size"), twoHours);

        List<SoakSampler.Sample> flat = new ArrayList<>();
        for (SoakSampler.Sample s : samples) {
            Map<String, Double> v = new java.util.HashMap<>(s.values());
            v.put("TaskManager heap after GC (MB, max)", 100.0);
            flat.add(new SoakSampler.Sample(s.atMillis(), v));
        }
        String ok = SoakITCase.trendsFlat(flat, Duration.ofHours(2));
        assertTrue(ok.startsWith("flat"), ok);
        assertTrue(ok.contains("checkpoint size (MB) +3.8%"), ok);
        assertTrue(
                SoakITCase.trendsFlat(samples, Duration.ofMinutes(15))
                        .startsWith("trends not judged"));
        assertTrue(
                SoakITCase.trendsFlat(List.of(), Duration.ofHours(2))
                        .startsWith("rising or unknown"));
    }

    @Test
    void heapAfterGcIsTheLowestOfTheLogsLastMinute(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("taskmanager-1.gc.log");
        Files.writeString(
                log,
                String.join(
                        "\n",
                        "[2026-12-07T12:19:00.000+0000][100.000s] GC(300) Pause Young (Normal) (G1"
                                + " Evacuation Pause) 150M->90M(288M) 3.1ms",
                        "[2026-12-07T12:20:55.944+0000][170.342s] GC(362) Pause Young (Normal) (G1"
                                + " Evacuation Pause) 219M->183M(288M) 3.754ms",
                        "[2026-12-07T12:20:55.974+0000][170.371s] GC(361) Pause Remark"
                                + " 185M->148M(288M) 24.134ms",
                        "[2026-12-07T12:20:56.017+0000][170.414s] GC(363) Pause Young (Prepare"
                                + " Mixed) (G1 Evacuation Pause) 185M->147M(288M) 3.803ms",
                        "[2026-12-07T12:20:56.036+0000][170.433s] GC(364) Pause Young (Mixed) (G1"
                                + " Evacuation Pause) 158M->130M(288M) 6.289ms",
                        "[2026-12-07T12:20:57.000+0000][171.000s] GC(365) Pause Young (Normal) (G1"
                                + " Evacuation Pause) 200M->160M(288M) 3.0ms",
                        ""));
        // 90 MB was 71 s before the last collection: not of the last minute
        assertEquals(130.0, SoakSampler.heapAfterGc(log), 1e-9);
        assertEquals(-1.0, SoakSampler.heapAfterGc(dir.resolve("absent.gc.log")), 1e-9);
    }

    @Test
    void theSamplersAdminClientStarts() {
        // an API timeout below the request timeout made every lag sample fail
        try (org.apache.kafka.clients.admin.Admin admin =
                org.apache.kafka.clients.admin.Admin.create(
                        SoakSampler.adminSettings("127.0.0.1:9"))) {
            assertNotNull(admin);
        }
    }

    @Test
    void aJobFailureIsNamedByItsRootCause() {
        String trace =
                String.join(
                        "\n",
                        "java.lang.Exception: Could not perform checkpoint 82 for operator Source",
                        "\tat org.apache.flink.streaming.runtime.tasks.StreamTask.run(StreamTask.java:1)",
                        "Caused by: org.apache.flink.runtime.checkpoint.CheckpointException: declined",
                        "\tat x.y(Z.java:1)",
                        "Caused by: java.io.IOException: Failed to serialize element. Serialized size"
                                + " (> 28097074 bytes) exceeds JVM heap space",
                        "\tat x.y(Z.java:2)");
        String cause = SoakSampler.rootCause(trace);
        assertTrue(cause.startsWith("java.io.IOException: Failed to serialize"), cause);
        assertTrue(new SoakSampler.Failure(0, cause).outOfMemory());
        assertTrue(
                new SoakSampler.Failure(
                                0,
                                SoakSampler.rootCause(
                                        "java.lang.OutOfMemoryError: Java heap space"))
                        .outOfMemory());
        assertFalse(
                new SoakSampler.Failure(
                                0,
                                SoakSampler.rootCause(
                                        "org.apache.flink.runtime.jobmaster.JobMasterException:"
                                                + " TaskManager with id tm-1 is no longer reachable."))
                        .outOfMemory());
    }

    @Test
    void durationsReadAsTheScriptTakesThem() {
        assertEquals(Duration.ofSeconds(70), SoakITCase.parse("70s"));
        assertEquals(Duration.ofMinutes(15), SoakITCase.parse("15m"));
        assertEquals(Duration.ofMinutes(15), SoakITCase.parse("15min"));
        assertEquals(Duration.ofHours(2), SoakITCase.parse("2h"));
        assertThrows(IllegalArgumentException.class, () -> SoakITCase.parse("2 hours"));
        assertEquals(SoakFaults.Kind.SLOW_S3, SoakFaults.Kind.of("slow-s3"));
        assertThrows(IllegalArgumentException.class, () -> SoakFaults.Kind.of("disk"));
    }

    @Test
    void seenRecordsCountEveryMarkPastTheSaturatedCount() {
        SeqFlags flags = new SeqFlags();
        for (int i = 0; i < 200; i++) {
            flags.mark(5);
        }
        flags.mark(1 << 20); // past the first array: it grows
        assertEquals(Byte.MAX_VALUE, flags.count(5));
        assertEquals(201, flags.marks());
        assertEquals(0, flags.contiguous());
    }

    /** One sample a minute from minute 0 to {@code last}. */
    private static List<SoakSampler.Sample> everyMinute(
            int last, IntFunction<Map<String, Double>> values) {
        List<SoakSampler.Sample> out = new ArrayList<>();
        for (int minute = 0; minute <= last; minute++) {
            out.add(new SoakSampler.Sample(minute * 60_000L, values.apply(minute)));
        }
        return out;
    }

    /** One checkpoint size a minute from minute 0. */
    private static List<SoakSampler.Sample> sizes(double... mb) {
        List<SoakSampler.Sample> out = new ArrayList<>();
        for (int i = 0; i < mb.length; i++) {
            out.add(new SoakSampler.Sample(i * 60_000L, Map.of("checkpoint size (MB)", mb[i])));
        }
        return out;
    }
}
