package io.tfstream.job.shards;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP proxy on 127.0.0.1 in front of S3Proxy that reproduces what other S3 stores do, so the
 * shard store is tested against those behaviours with real requests: {@link Behaviour#MINIO}
 * answers {@code ListMultipartUploads} with a prefix only for uploads whose key is that prefix
 * exactly (MinIO; no prefix lists every upload), {@link Behaviour#NO_LIST_BUCKET} answers 403
 * instead of 404 for a missing key, as S3 does for a role without {@code s3:ListBucket}. Requests
 * pass unchanged (the Host header stays, so SigV4 signatures hold); one upstream connection per
 * request.
 */
final class S3BehaviourProxy implements AutoCloseable {
    enum Behaviour {
        MINIO,
        NO_LIST_BUCKET
    }

    private static final Pattern UPLOAD =
            Pattern.compile("<Upload>.*?<Key>(.*?)</Key>.*?</Upload>", Pattern.DOTALL);

    private final ServerSocket server;
    private final URI upstream;
    private final Behaviour behaviour;

    S3BehaviourProxy(String upstreamEndpoint, Behaviour behaviour) throws IOException {
        this.upstream = URI.create(upstreamEndpoint);
        this.behaviour = behaviour;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "s3-behaviour-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread t = new Thread(() -> serve(client), "s3-behaviour-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client;
                InputStream in = client.getInputStream();
                OutputStream out = client.getOutputStream()) {
            while (true) {
                List<String> head = readHead(in);
                if (head.isEmpty()) {
                    return;
                }
                long length = contentLength(head);
                byte[] body = in.readNBytes((int) length);
                Response r = forward(head, body);
                String[] requestLine = head.get(0).split(" ");
                r = apply(requestLine[0], URI.create(requestLine[1]), r);
                out.write(r.serialize(requestLine[0].equals("HEAD")));
                out.flush();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private Response apply(String method, URI uri, Response r) {
        String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        if (behaviour == Behaviour.NO_LIST_BUCKET && method.equals("HEAD") && r.status() == 404) {
            return new Response(
                    "HTTP/1.1 403 Forbidden", r.headersWithout("content-length"), new byte[0]);
        }
        if (behaviour == Behaviour.MINIO
                && method.equals("GET")
                && (query.startsWith("uploads") || query.contains("&uploads"))) {
            String prefix = param(query, "prefix");
            if (prefix != null && !prefix.isEmpty()) {
                String xml = new String(r.body, StandardCharsets.UTF_8);
                Matcher m = UPLOAD.matcher(xml);
                StringBuilder kept = new StringBuilder();
                while (m.find()) {
                    m.appendReplacement(
                            kept,
                            m.group(1).equals(prefix) ? Matcher.quoteReplacement(m.group()) : "");
                }
                m.appendTail(kept);
                return new Response(
                        r.statusLine,
                        r.headersWithout("content-length"),
                        kept.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
        return r;
    }

    private static String param(String query, String name) {
        for (String p : query.split("&")) {
            int eq = p.indexOf('=');
            if (eq > 0 && p.substring(0, eq).equals(name)) {
                return java.net.URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private Response forward(List<String> head, byte[] body) throws IOException {
        try (Socket s = new Socket(upstream.getHost(), upstream.getPort())) {
            OutputStream up = s.getOutputStream();
            StringBuilder h = new StringBuilder();
            for (String line : head) {
                if (!line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                    h.append(line).append("\r\n");
                }
            }
            h.append("Connection: close\r\n\r\n");
            up.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
            up.write(body);
            up.flush();
            InputStream down = s.getInputStream();
            List<String> responseHead = readHead(down);
            String status = responseHead.get(0);
            List<String> headers = new ArrayList<>(responseHead.subList(1, responseHead.size()));
            byte[] payload;
            if (headerValue(headers, "transfer-encoding") != null) {
                payload = dechunk(down);
                headers.removeIf(x -> x.toLowerCase(Locale.ROOT).startsWith("transfer-encoding:"));
            } else if (headerValue(headers, "content-length") != null) {
                payload =
                        down.readNBytes(
                                (int) Long.parseLong(headerValue(headers, "content-length")));
            } else {
                payload = down.readAllBytes();
            }
            return new Response(status, headers, payload);
        }
    }

    private static byte[] dechunk(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            String size = readLine(in).trim();
            int semi = size.indexOf(';');
            int n = Integer.parseInt(semi < 0 ? size : size.substring(0, semi), 16);
            if (n == 0) {
                while (!readLine(in).isEmpty()) {
                    // trailers
                }
                return out.toByteArray();
            }
            out.write(in.readNBytes(n));
            readLine(in);
        }
    }

    private static List<String> readHead(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        while (true) {
            String line;
            try {
                line = readLine(in);
            } catch (EOFException e) {
                return lines;
            }
            if (line.isEmpty()) {
                return lines;
            }
            lines.add(line);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        throw new EOFException();
    }

    private static long contentLength(List<String> head) {
        String v = headerValue(head.subList(1, head.size()), "content-length");
        return v == null ? 0 : Long.parseLong(v);
    }

    private static String headerValue(List<String> headers, String name) {
        for (String h : headers) {
            int colon = h.indexOf(':');
            if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return h.substring(colon + 1).trim();
            }
        }
        return null;
    }

    private record Response(String statusLine, List<String> headers, byte[] body) {
        int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        List<String> headersWithout(String name) {
            List<String> kept = new ArrayList<>();
            for (String h : headers) {
                if (!h.toLowerCase(Locale.ROOT).startsWith(name + ":")
                        && !h.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                    kept.add(h);
                }
            }
            return kept;
        }

        byte[] serialize(boolean head) {
            StringBuilder s = new StringBuilder(statusLine).append("\r\n");
            for (String h : headersWithout("content-length")) {
                s.append(h).append("\r\n");
            }
            if (!head) {
                s.append("Content-Length: ").append(body.length).append("\r\n");
            } else if (headerValue(headers, "content-length") != null) {
                s.append("Content-Length: ")
                        .append(headerValue(headers, "content-length"))
                        .append("\r\n");
            }
            s.append("\r\n");
            byte[] h = s.toString().getBytes(StandardCharsets.ISO_8859_1);
            if (head) {
                return h;
            }
            byte[] all = new byte[h.length + body.length];
            System.arraycopy(h, 0, all, 0, h.length);
            System.arraycopy(body, 0, all, h.length, body.length);
            return all;
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
