package io.tfstream.e2e.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback in front of S3Proxy that turns S3 slow or unreliable on demand, as a
 * throttled or failing object store does: {@link Mode#SLOW} delays each response by a fixed
 * latency, {@link Mode#SLOW_DOWN} answers every new request with S3's {@code 503 SlowDown}, {@link
 * Mode#RESET} resets every connection. A change of mode resets the connections open at the time, so
 * that it applies to every request after it.
 */
final class FaultProxy implements AutoCloseable {
    enum Mode {
        PASS,
        SLOW,
        SLOW_DOWN,
        RESET
    }

    private static final String SLOW_DOWN_BODY =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message>"
                    + "</Error>";

    private static final byte[] SLOW_DOWN_RESPONSE =
            ("HTTP/1.1 503 Slow Down\r\n"
                            + "Content-Type: application/xml\r\n"
                            + "Connection: close\r\n"
                            + "Content-Length: "
                            + SLOW_DOWN_BODY.length()
                            + "\r\n\r\n"
                            + SLOW_DOWN_BODY)
                    .getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final int upstreamPort;
    private final long latencyMillis;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong refused = new AtomicLong();
    private volatile Mode mode = Mode.PASS;
    private volatile boolean closed;

    FaultProxy(int upstreamPort, long latencyMillis) throws IOException {
        this.upstreamPort = upstreamPort;
        this.latencyMillis = latencyMillis;
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread accept = new Thread(this::accept, "fault-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return server.getLocalPort();
    }

    String endpoint() {
        return "http://127.0.0.1:" + port();
    }

    /** Requests answered with 503 or reset so far. */
    long refused() {
        return refused.get();
    }

    void mode(Mode next) {
        mode = next;
        for (Socket s : open) {
            reset(s);
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            Thread t = new Thread(() -> serve(client), "fault-proxy-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket client) {
        Mode m = mode;
        open.add(client);
        try {
            if (m == Mode.RESET) {
                refused.incrementAndGet();
                reset(client);
                return;
            }
            if (m == Mode.SLOW_DOWN) {
                refused.incrementAndGet();
                readHead(client.getInputStream());
                client.getOutputStream().write(SLOW_DOWN_RESPONSE);
                client.getOutputStream().flush();
                client.close();
                return;
            }
            try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
                open.add(upstream);
                boolean[] requestSent = {false};
                Thread up =
                        new Thread(
                                () -> pump(client, upstream, requestSent, false), "fault-proxy-up");
                up.setDaemon(true);
                up.start();
                pump(upstream, client, requestSent, true);
                up.join();
                open.remove(upstream);
            }
        } catch (IOException e) {
            reset(client);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(client);
            closeQuietly(client);
        }
    }

    /**
     * Copies {@code from} to {@code to}; on the response side, in {@link Mode#SLOW}, the first
     * bytes after each request wait the latency.
     */
    private void pump(Socket from, Socket to, boolean[] requestSent, boolean response) {
        byte[] buf = new byte[64 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buf)) >= 0; ) {
                if (response && requestSent[0] && mode == Mode.SLOW) {
                    Thread.sleep(latencyMillis);
                }
                requestSent[0] = !response;
                out.write(buf, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            reset(from);
            reset(to);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void readHead(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        for (int b; matched < 4 && (b = in.read()) >= 0; ) {
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }

    /** Closes {@code s} with a TCP reset, as a failing load balancer does. */
    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (SocketException ignored) {
            // already closed
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : open) {
            reset(s);
        }
    }
}
