package io.tfstream.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * The addresses TCP sockets listen on for a port, from Linux's {@code /proc/net/tcp} and {@code
 * tcp6}: what a process exposes, read without connecting to anything.
 */
public final class ListeningSockets {
    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    /**
     * Every local address a socket in state LISTEN has for {@code port} (IPv4 dotted, IPv6 hex).
     */
    public static Set<String> addressesOf(int port) throws IOException {
        Set<String> out = new TreeSet<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path p = Path.of(table);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p)) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 4 || !f[3].equals(LISTEN) || !f[1].contains(":")) {
                    continue;
                }
                String[] local = f[1].split(":");
                if (Integer.parseInt(local[1], 16) == port) {
                    out.add(address(local[0]));
                }
            }
        }
        return out;
    }

    /**
     * A /proc address: IPv4 as 4 little-endian bytes in hex; IPv6 as four such words, read as IPv4
     * where it is an IPv4-mapped address, as {@code 0.0.0.0} where it is any address (Java's
     * dual-stack sockets), else left in hex.
     */
    private static String address(String hex) {
        if (hex.length() == 32) {
            if (hex.chars().allMatch(c -> c == '0')) {
                return "0.0.0.0";
            }
            if (hex.startsWith("0000000000000000FFFF0000")) {
                return address(hex.substring(24));
            }
            return hex;
        }
        long v = Long.parseLong(hex, 16);
        return (v & 0xFF) + "." + ((v >> 8) & 0xFF) + "." + ((v >> 16) & 0xFF) + "." + (v >> 24);
    }
}
