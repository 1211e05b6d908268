package io.tfstream.metrics;

import java.util.Properties;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Flink's Prometheus reporter served on one address: {@code metrics.reporter.<name>.host} (default
 * {@value #DEFAULT_HOST}; {@code 0.0.0.0} for every interface, as a pod that another pod scrapes
 * needs) and {@code metrics.reporter.<name>.port} (a port or a range such as {@code 9249-9259},
 * default {@value #DEFAULT_PORT}). Flink's own {@code PrometheusReporterFactory} has a port only
 * and listens on every interface of the host.
 */
public final class BoundPrometheusReporterFactory implements MetricReporterFactory {
    /** The reporter option naming the address to listen on. */
    public static final String HOST = "host";

    /** The reporter option naming the port or port range. */
    public static final String PORT = "port";

    /** Loopback: only processes of this host can scrape. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    /** Flink's reporter's default port. */
    public static final String DEFAULT_PORT = "9249";

    @Override
    public BoundPrometheusReporter createMetricReporter(Properties properties) {
        String host = properties.getProperty(HOST, DEFAULT_HOST).trim();
        String ports = properties.getProperty(PORT, DEFAULT_PORT).trim();
        return new BoundPrometheusReporter(host, ports);
    }
}
