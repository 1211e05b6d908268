package io.tfstream.metrics;

import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.util.Iterator;
import org.apache.flink.metrics.prometheus.AbstractPrometheusReporter;
import org.apache.flink.util.NetUtils;

/**
 * Flink's Prometheus reporter (metric names, labels and types are Flink's own: {@link
 * AbstractPrometheusReporter}) with its HTTP endpoint bound to one host address instead of every
 * interface. Created by {@link BoundPrometheusReporterFactory}.
 */
public final class BoundPrometheusReporter extends AbstractPrometheusReporter {
    private final HTTPServer server;
    private final InetSocketAddress address;

    /** {@code ports}: one port, or a range as Flink writes them ("9250-9260", "9250,9252"). */
    BoundPrometheusReporter(String host, String ports) {
        CollectorRegistry registry = registryOf(this);
        IOException last = null;
        HTTPServer bound = null;
        InetSocketAddress at = null;
        Iterator<Integer> it = NetUtils.getPortRangeFromString(ports);
        while (bound == null && it.hasNext()) {
            at = new InetSocketAddress(host, it.next());
            try {
                bound = new HTTPServer(at, registry, true);
            } catch (IOException e) {
                last = e; // taken: the next port of the range (several processes on one host)
            }
        }
        if (bound == null) {
            throw new IllegalStateException(
                    "cannot serve Prometheus metrics on " + host + ", ports " + ports, last);
        }
        this.server = bound;
        this.address = new InetSocketAddress(at.getAddress(), bound.getPort());
        log.info("Prometheus metrics served at http://{}:{}/metrics", host, bound.getPort());
    }

    /** Where the endpoint listens. */
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        server.stop();
        super.close();
    }

    /**
     * The registry the base class fills: package-private in Flink, which builds its own HTTP server
     * on it; read once here, failing loudly should a Flink version rename it.
     */
    private static CollectorRegistry registryOf(AbstractPrometheusReporter reporter) {
        try {
            Field f = AbstractPrometheusReporter.class.getDeclaredField("registry");
            f.setAccessible(true);
            return (CollectorRegistry) f.get(reporter);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "this Flink's AbstractPrometheusReporter has no registry field to serve", e);
        }
    }
}
