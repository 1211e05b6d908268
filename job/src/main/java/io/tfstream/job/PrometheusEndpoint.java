package io.tfstream.job;

import io.tfstream.metrics.BoundPrometheusReporterFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.apache.flink.configuration.Configuration;

/**
 * Flink's Prometheus reporter on an embedded cluster, bound to loopback ({@link
 * BoundPrometheusReporterFactory}: Flink's own listens on every interface): every metric of the
 * JobManager and the TaskManager, the job's {@code tfstream} metrics and the Kafka source's lag
 * among them, served at {@code http://127.0.0.1:<port>/metrics} while the cluster runs. A reporter
 * is cluster configuration: on a Flink cluster the same keys go into its config.yaml and the jars
 * into its {@code plugins/} (docs/operations.md#metrics-in-prometheus).
 */
public final class PrometheusEndpoint {
    /** The reporter's name in the {@code metrics.reporter.<name>.*} keys. */
    public static final String REPORTER = "prom";

    /** {@code metrics.reporter.prom.factory.class}. */
    public static final String FACTORY_KEY = "metrics.reporter." + REPORTER + ".factory.class";

    /** {@code metrics.reporter.prom.port}: a port or a range such as {@code 9249-9259}. */
    public static final String PORT_KEY = "metrics.reporter." + REPORTER + ".port";

    /** {@code metrics.reporter.prom.host}: the address the endpoint listens on. */
    public static final String HOST_KEY = "metrics.reporter." + REPORTER + ".host";

    /** The reporter's factory, found through its service file in the jar. */
    public static final String FACTORY = BoundPrometheusReporterFactory.class.getName();

    /** Where an embedded cluster's endpoint listens: this host's processes only. */
    public static final String HOST = BoundPrometheusReporterFactory.DEFAULT_HOST;

    private PrometheusEndpoint() {}

    /**
     * Refuses a port out of range or taken now ({@code flag} names the setting): Flink only logs a
     * reporter that cannot bind, and the metrics would be silently missing.
     */
    public static void checkPort(int port, String flag) {
        if (port < 1 || port > 65535) {
            throw new JobConfigException(flag + " must be 1..65535, got " + port);
        }
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(HOST, port));
        } catch (IOException e) {
            throw new JobConfigException(
                    "port " + port + " (" + flag + ", the Prometheus endpoint) is in use");
        }
    }

    /** Adds the reporter on {@code port} to {@code flink} (after {@link #checkPort}). */
    public static void enable(Configuration flink, int port) {
        flink.setString(FACTORY_KEY, FACTORY);
        flink.setString(HOST_KEY, HOST);
        flink.setString(PORT_KEY, Integer.toString(port));
    }

    /** Where Prometheus scrapes the reporter on {@code port}. */
    public static URI url(int port) {
        return URI.create("http://" + HOST + ":" + port + "/metrics");
    }
}
