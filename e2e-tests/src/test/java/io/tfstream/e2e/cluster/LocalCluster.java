package io.tfstream.e2e.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The local cluster of {@code deploy/local/} (Kafka broker, S3Proxy, a JobManager and TaskManagers,
 * each its own process) driven through its scripts, as a user would: a state directory of its own
 * and free ports, so that it never meets a cluster someone else runs. Every script's stderr is
 * appended to {@code <state>/logs/scripts.log}; a failing script fails the call with the end of it.
 */
public final class LocalCluster implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();
    private static final Duration UP_TIMEOUT = Duration.ofMinutes(6);
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final Path scripts;
    private final Path stateDir;
    private final Map<String, String> env = new HashMap<>();

    private LocalCluster(Path scripts, Path stateDir) {
        this.scripts = scripts;
        this.stateDir = stateDir;
    }

    /**
     * A cluster (not started) in {@code stateDir} on free ports. The scripts' location and the job
     * jar come from the system properties {@code tfstream.deploy.dir} and {@code tfstream.job.jar}
     * (set by the e2e module's failsafe configuration). The scripts' Maven calls use this build's
     * local repository ({@code tfstream.maven.repo}).
     */
    public static LocalCluster create(Path stateDir) throws IOException {
        LocalCluster c =
                new LocalCluster(
                        Path.of(property("tfstream.deploy.dir")), stateDir.toAbsolutePath());
        int[] ports = freePorts(7);
        c.env.put("TFSTREAM_LOCAL_DIR", c.stateDir.toString());
        c.env.put("TFSTREAM_KAFKA_PORT", Integer.toString(ports[0]));
        c.env.put("TFSTREAM_KAFKA_CONTROLLER_PORT", Integer.toString(ports[1]));
        c.env.put("TFSTREAM_S3_PORT", Integer.toString(ports[2]));
        c.env.put("TFSTREAM_FLINK_REST_PORT", Integer.toString(ports[3]));
        c.env.put("TFSTREAM_FLINK_RPC_PORT", Integer.toString(ports[4]));
        c.env.put("TFSTREAM_ZOOKEEPER_PORT", Integer.toString(ports[5]));
        c.env.put("TFSTREAM_METRICS_PORT", Integer.toString(ports[6]));
        c.env.put("TFSTREAM_JOB_JAR", property("tfstream.job.jar"));
        // the Flink line this build is for (its job jar needs that line's cluster)
        c.env.put("TFSTREAM_FLINK_LINE", System.getProperty("tfstream.flink.line", "2.2"));
        c.env.put("TFSTREAM_START_TIMEOUT", "180");
        c.env.put("TFSTREAM_MVN_OPTS", mavenOptions());
        Files.createDirectories(c.stateDir.resolve("logs"));
        return c;
    }

    /**
     * Appends the Flink settings of {@code yaml} to the cluster's configuration at the next {@code
     * up} ({@code TFSTREAM_FLINK_CONFIG}).
     */
    public void flinkConfig(Path yaml) {
        env.put("TFSTREAM_FLINK_CONFIG", yaml.toAbsolutePath().toString());
    }

    /**
     * The text of every Prometheus endpoint of the cluster's Flink processes: the JobManager's port
     * ({@code TFSTREAM_METRICS_PORT}) and the range after it that the TaskManagers take.
     */
    /**
     * The ports of the metrics range that processes listen on, each with the addresses it listens
     * on (from the kernel's socket table: nothing is contacted).
     */
    public java.util.Map<Integer, java.util.Set<String>> metricsListeners() throws IOException {
        int first = Integer.parseInt(env.get("TFSTREAM_METRICS_PORT"));
        java.util.Map<Integer, java.util.Set<String>> out = new java.util.TreeMap<>();
        for (int port = first; port <= first + 16; port++) {
            java.util.Set<String> at = io.tfstream.metrics.ListeningSockets.addressesOf(port);
            if (!at.isEmpty()) {
                out.put(port, at);
            }
        }
        return out;
    }

    public List<String> scrapeMetrics() {
        int first = Integer.parseInt(env.get("TFSTREAM_METRICS_PORT"));
        List<String> out = new java.util.ArrayList<>();
        for (int port = first; port <= first + 16; port++) {
            try {
                java.net.http.HttpResponse<String> r =
                        HTTP.send(
                                java.net.http.HttpRequest.newBuilder(
                                                java.net.URI.create(
                                                        "http://127.0.0.1:" + port + "/metrics"))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                java.net.http.HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    out.add(r.body());
                }
            } catch (IOException e) {
                // Nothing listens on this port of the range.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while scraping", e);
            }
        }
        return out;
    }

    /** {@code up --taskmanagers n}: starts what is not running and waits until it is ready. */
    public void up(int taskManagers) {
        run(UP_TIMEOUT, "up", "--taskmanagers", Integer.toString(taskManagers));
    }

    /** {@code down}: stops every process; data and logs stay. */
    public void down() {
        run(TIMEOUT, "down");
    }

    /** {@code status --json}, whether the cluster is up or not. */
    public JsonNode status() {
        try {
            return JSON.readTree(run(TIMEOUT, Set.of(0, 3), "status", "--json"));
        } catch (IOException e) {
            throw new UncheckedIOException("status --json did not print JSON", e);
        }
    }

    /** {@code topics create NAME[:PARTITIONS]...}. */
    public void createTopics(String... specs) {
        List<String> args = new ArrayList<>(List.of("topics", "create"));
        args.addAll(List.of(specs));
        run(TIMEOUT, args.toArray(String[]::new));
    }

    /** {@code submit --config config --parallelism p}; returns the job id once it runs. */
    public String submit(Path config, int parallelism) {
        return run(
                        TIMEOUT,
                        "submit",
                        "--config",
                        config.toString(),
                        "--parallelism",
                        Integer.toString(parallelism))
                .trim();
    }

    /** {@code submit ... --from-savepoint savepoint}: the job resumed at another parallelism. */
    public String submit(Path config, int parallelism, String savepoint) {
        return run(
                        TIMEOUT,
                        "submit",
                        "--config",
                        config.toString(),
                        "--parallelism",
                        Integer.toString(parallelism),
                        "--from-savepoint",
                        savepoint)
                .trim();
    }

    /** {@code job cancel ID}: cancel without a savepoint, waiting until it is cancelled. */
    public void cancelJob(String jobId) {
        run(TIMEOUT, "job", "cancel", jobId);
    }

    /** GET of Flink's REST API ({@code path} such as {@code /jobs/ID/checkpoints}) as JSON. */
    public JsonNode rest(String path) {
        try {
            java.net.http.HttpResponse<String> r =
                    HTTP.send(
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create(
                                                    "http://localhost:"
                                                            + env.get("TFSTREAM_FLINK_REST_PORT")
                                                            + path))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + path + ": " + r.statusCode() + r.body());
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: GET " + path, e);
        }
    }

    /** {@code job stop ID [--drain]}: stop with a savepoint; returns its path. */
    public String stopJob(String jobId, boolean drain) {
        return (drain
                        ? run(TIMEOUT, "job", "stop", jobId, "--drain")
                        : run(TIMEOUT, "job", "stop", jobId))
                .trim();
    }

    /**
     * {@code job savepoint ID}: a savepoint of the running job, which goes on; returns its path.
     */
    public String savepoint(String jobId) {
        return run(TIMEOUT, "job", "savepoint", jobId).trim();
    }

    /** {@code taskmanager start}: returns the new TaskManager's number once it is registered. */
    public int startTaskManager() {
        return Integer.parseInt(run(TIMEOUT, "taskmanager", "start").trim());
    }

    /** {@code jobmanager kill}: kill -9 of the JobManager. */
    public void killJobManager() {
        run(TIMEOUT, "jobmanager", "kill");
    }

    /** {@code jobmanager start}: returns once its REST API answers. */
    public void startJobManager() {
        run(TIMEOUT, "jobmanager", "start");
    }

    /** The Flink line of the cluster ({@code 2.2} or {@code 1.20}). */
    public String flinkLine() {
        return env.get("TFSTREAM_FLINK_LINE");
    }

    /** The ZooKeeper port of the JobManager's high availability. */
    public int zookeeperPort() {
        return Integer.parseInt(env.get("TFSTREAM_ZOOKEEPER_PORT"));
    }

    /** {@code taskmanager pause N}: SIGSTOP, returns once the process is stopped. */
    public void pauseTaskManager(int index) {
        run(TIMEOUT, "taskmanager", "pause", Integer.toString(index));
    }

    /** {@code taskmanager resume N}: SIGCONT, returns once the process runs again. */
    public void resumeTaskManager(int index) {
        run(TIMEOUT, "taskmanager", "resume", Integer.toString(index));
    }

    /**
     * Whether TaskManager {@code index} is alive (running or paused), by {@code taskmanager list}.
     */
    public boolean taskManagerAlive(int index) {
        return run(TIMEOUT, "taskmanager", "list")
                .lines()
                .anyMatch(
                        l -> l.startsWith(index + " running ") || l.startsWith(index + " paused "));
    }

    /** {@code taskmanager kill N}: kill -9. */
    public void killTaskManager(int index) {
        run(TIMEOUT, "taskmanager", "kill", Integer.toString(index));
    }

    public void stopBroker() {
        run(TIMEOUT, "broker", "stop");
    }

    /** {@code broker kill}: kill -9 of the broker. */
    public void killBroker() {
        run(TIMEOUT, "broker", "kill");
    }

    /** {@code s3proxy kill}: kill -9 of S3Proxy. */
    public void killS3Proxy() {
        run(TIMEOUT, "s3proxy", "kill");
    }

    public void startBroker() {
        run(TIMEOUT, "broker", "start");
    }

    public void stopS3Proxy() {
        run(TIMEOUT, "s3proxy", "stop");
    }

    public void startS3Proxy() {
        run(TIMEOUT, "s3proxy", "start");
    }

    public String bootstrapServers() {
        return "localhost:" + env.get("TFSTREAM_KAFKA_PORT");
    }

    /** S3Proxy's endpoint. */
    public String s3Endpoint() {
        return "http://127.0.0.1:" + env.get("TFSTREAM_S3_PORT");
    }

    /** The {@code s3.credentials-file} that S3Proxy's start writes for jobs and tools. */
    public Path s3CredentialsFile() {
        return stateDir.resolve("s3-credentials.properties");
    }

    /** Where S3Proxy keeps the objects of {@code bucket}: one file per key. */
    public Path objects(String bucket) {
        return stateDir.resolve("s3").resolve(bucket);
    }

    public Path stateDir() {
        return stateDir;
    }

    /** Stops the cluster ({@code down}); stopping a stopped cluster is fine. */
    @Override
    public void close() {
        down();
    }

    private String run(Duration timeout, String... command) {
        return run(timeout, Set.of(0), command);
    }

    /** Runs {@code deploy/local/<command[0]> command[1..]}; returns its stdout. */
    private String run(Duration timeout, Set<Integer> okCodes, String... command) {
        List<String> cmd = new ArrayList<>(List.of(command));
        cmd.set(0, scripts.resolve(command[0]).toString());
        Path log = stateDir.resolve("logs").resolve("scripts.log");
        try {
            Files.writeString(
                    log,
                    "\n$ " + String.join(" ", command) + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            ProcessBuilder b = new ProcessBuilder(cmd);
            b.environment().putAll(env);
            b.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
            b.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process p = b.start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(p));
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(
                        String.join(" ", command) + " did not end in " + timeout + tail(log));
            }
            String stdout = out.get(30, TimeUnit.SECONDS);
            if (!okCodes.contains(p.exitValue())) {
                throw new AssertionError(
                        String.join(" ", command)
                                + " exited with "
                                + p.exitValue()
                                + tail(log)
                                + "\nstdout: "
                                + stdout);
            }
            return stdout;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command[0], e);
        } catch (java.util.concurrent.ExecutionException
                | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot read the output of " + command[0], e);
        }
    }

    private static String readAll(Process p) {
        try (InputStream in = p.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return "\n--- end of "
                + log
                + ":\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static String mavenOptions() {
        String repo = System.getProperty("tfstream.maven.repo", "");
        return repo.isEmpty() ? "" : "-Dmaven.repo.local=" + repo;
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        if (v == null) {
            throw new IllegalStateException(
                    "system property " + name + " is not set (the e2e module's failsafe sets it)");
        }
        return v;
    }

    /**
     * {@code n} ports free now, below the kernel's ephemeral range: the cluster binds them only
     * after its Maven calls, and a port from that range (what {@code new ServerSocket(0)} gives)
     * may meanwhile become the local end of any outgoing connection. The last one is the metrics
     * port, whose next 16 ports the TaskManagers take: those are checked too.
     */
    private static int[] freePorts(int n) throws IOException {
        int below = Math.max(ephemeralRangeStart(), 20_000);
        java.util.Random random = new java.util.Random();
        List<Integer> ports = new java.util.ArrayList<>();
        for (int attempt = 0; ports.size() < n && attempt < 10_000; attempt++) {
            int port = 10_000 + random.nextInt(Math.max(1, below - 10_000 - 17));
            int span = ports.size() == n - 1 ? 17 : 1;
            boolean free = true;
            for (int p = port; p < port + span && free; p++) {
                free = !ports.contains(p) && bindable(p);
            }
            if (free) {
                ports.add(port);
            }
        }
        if (ports.size() < n) {
            throw new IOException("no " + n + " free ports below " + below);
        }
        return ports.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port)) {
            return s.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    /** The first port of Linux's ephemeral range (32768 where it cannot be read). */
    private static int ephemeralRangeStart() {
        // Read by line: Files.readString of this /proc file returned only its first byte here.
        try (java.io.BufferedReader r =
                Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
