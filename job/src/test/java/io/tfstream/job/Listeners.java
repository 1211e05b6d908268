package io.tfstream.job;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The TCP sockets listening in this JVM and its child processes, read from Linux's {@code /proc}
 * (the socket inodes among each process's open files, their addresses in {@code /proc/net/tcp} and
 * {@code tcp6}): what a command binds, seen as {@code ss -ltnp} would show it.
 */
public final class Listeners {
    private static final String LISTEN = "0A";

    private Listeners() {}

    /** The listening sockets of this process and its descendants now. */
    public static Set<InetSocketAddress> now() {
        Set<String> inodes = new HashSet<>();
        socketInodes(ProcessHandle.current().pid(), inodes);
        ProcessHandle.current().descendants().forEach(p -> socketInodes(p.pid(), inodes));
        Set<InetSocketAddress> listening = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (Map.Entry<String, InetSocketAddress> e : listeningIn(Path.of(table)).entrySet()) {
                if (inodes.contains(e.getKey())) {
                    listening.add(e.getValue());
                }
            }
        }
        return listening;
    }

    /**
     * Samples {@link #now()} on a thread of its own until {@link Sampler#close()}: every listener
     * that appeared while it ran, however briefly.
     */
    public static Sampler sample() {
        return new Sampler();
    }

    /** What {@code action} returned, and the listeners that appeared while it ran. */
    public record During<T>(T result, Set<InetSocketAddress> seen) {}

    /** Runs {@code action} while sampling the listeners. */
    public static <T> During<T> during(Supplier<T> action) {
        try (Sampler sampler = sample()) {
            T result = action.get();
            return new During<>(result, sampler.seen());
        }
    }

    /** Listeners seen while the sampler ran that were not there when it started. */
    public static final class Sampler implements AutoCloseable {
        private final Set<InetSocketAddress> before = now();
        private final Set<InetSocketAddress> seen = ConcurrentHashMap.newKeySet();
        private volatile boolean running = true;
        private final Thread thread;

        private Sampler() {
            thread =
                    new Thread(
                            () -> {
                                while (running) {
                                    record();
                                    // a sampling period, not a wait for a condition
                                    LockSupport.parkNanos(10_000_000L);
                                }
                            },
                            "listener-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        private void record() {
            for (InetSocketAddress a : now()) {
                if (!before.contains(a)) {
                    seen.add(a);
                }
            }
        }

        /** The new listeners seen so far. */
        public Set<InetSocketAddress> seen() {
            record();
            return Set.copyOf(seen);
        }

        @Override
        public void close() {
            running = false;
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The addresses that are not loopback. */
    public static Set<InetSocketAddress> notLoopback(Set<InetSocketAddress> listeners) {
        Set<InetSocketAddress> open = new HashSet<>();
        for (InetSocketAddress a : listeners) {
            if (!a.getAddress().isLoopbackAddress()) {
                open.add(a);
            }
        }
        return open;
    }

    private static void socketInodes(long pid, Set<String> into) {
        try (DirectoryStream<Path> fds =
                Files.newDirectoryStream(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (target.startsWith("socket:[")) {
                    into.add(target.substring("socket:[".length(), target.length() - 1));
                }
            }
        } catch (IOException goneMeanwhile) {
            // the process ended while it was read: it listens on nothing any more
        }
    }

    /** Inode to address of every LISTEN row of one {@code /proc/net} table. */
    private static Map<String, InetSocketAddress> listeningIn(Path table) {
        Map<String, InetSocketAddress> rows = new HashMap<>();
        List<String> lines;
        try (Stream<String> s = Files.lines(table)) {
            lines = s.skip(1).toList();
        } catch (IOException e) {
            return rows;
        }
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 9 && f[3].equals(LISTEN)) {
                rows.put(f[9], address(f[1]));
            }
        }
        return rows;
    }

    /** {@code HEX_ADDRESS:HEX_PORT}, the address in 32-bit words of host byte order. */
    static InetSocketAddress address(String hex) {
        int colon = hex.indexOf(':');
        String addr = hex.substring(0, colon);
        int port = Integer.parseInt(hex.substring(colon + 1), 16);
        byte[] bytes = new byte[addr.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = word * 8 + (3 - i) * 2;
                bytes[word * 4 + i] = (byte) Integer.parseInt(addr.substring(at, at + 2), 16);
            }
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(bytes), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("bad address in /proc/net: " + hex, e);
        }
    }
}
