package io.tfstream.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BoundPrometheusReporterTest {

    /**
     * By default the endpoint listens on loopback only: the kernel's table of listening sockets
     * says so, without connecting to any other address of the machine.
     */
    @Test
    void listensOnLoopbackByDefault() throws Exception {
        BoundPrometheusReporter r = create(null, "0");
        try {
            int port = r.address().getPort();
            assertEquals(Set.of("127.0.0.1"), ListeningSockets.addressesOf(port));
            HttpURLConnection c =
                    (HttpURLConnection)
                            URI.create("http://127.0.0.1:" + port + "/metrics")
                                    .toURL()
                                    .openConnection();
            assertEquals(200, c.getResponseCode());
            c.disconnect();
        } finally {
            r.close();
        }
    }

    @Test
    void listensOnTheConfiguredHostAndTakesTheNextFreePortOfARange() throws Exception {
        int taken;
        try (ServerSocket s = new ServerSocket(0)) {
            taken = s.getLocalPort();
            BoundPrometheusReporter r = create("0.0.0.0", taken + "-" + (taken + 20));
            try {
                int port = r.address().getPort();
                assertTrue(port > taken && port <= taken + 20, "port " + port);
                assertEquals(Set.of("0.0.0.0"), ListeningSockets.addressesOf(port));
            } finally {
                r.close();
            }
        }
    }

    @Test
    void aPortTakenOnEveryCandidateIsAClearError() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            int taken = s.getLocalPort();
            IllegalStateException e =
                    assertThrows(
                            IllegalStateException.class, () -> create(null, String.valueOf(taken)));
            assertTrue(
                    e.getMessage().contains("cannot serve Prometheus metrics on 127.0.0.1, ports"),
                    e.getMessage());
        }
    }

    private static BoundPrometheusReporter create(String host, String port) {
        Properties p = new Properties();
        if (host != null) {
            p.setProperty(BoundPrometheusReporterFactory.HOST, host);
        }
        p.setProperty(BoundPrometheusReporterFactory.PORT, port);
        return new BoundPrometheusReporterFactory().createMetricReporter(p);
    }
}
