package io.tfstream.embedded;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * S3Proxy (the real S3 API over a local directory) as its own process, from the
 * jar-with-dependencies the build copies to {@code cli/target/s3proxy} ({@link #locateJar}). The
 * basedir is absolute (with a relative one S3Proxy's LIST and multipart completion silently fail);
 * a bucket is a directory under it.
 */
public final class S3ProxyProcess implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Process process;
    private final int port;
    private final Path basedir;
    private final boolean tls;
    private final String accessKey;
    private final String secretKey;

    private S3ProxyProcess(
            Process process,
            int port,
            Path basedir,
            boolean tls,
            String accessKey,
            String secretKey) {
        this.process = process;
        this.port = port;
        this.basedir = basedir;
        this.tls = tls;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    /** Starts S3Proxy with its objects under {@code workDir/s3}. */
    public static S3ProxyProcess start(Path workDir) throws Exception {
        return start(workDir, workDir.resolve("s3"));
    }

    /**
     * Starts S3Proxy with its configuration and log in {@code workDir} and its objects under {@code
     * objects} (one directory per bucket, one file per key).
     */
    public static S3ProxyProcess start(Path workDir, Path objects) throws Exception {
        return start(workDir, objects, null, null);
    }

    /**
     * Starts S3Proxy as {@link #start(Path, Path)} does, serving HTTPS only with the PKCS12 key
     * store {@code keyStore} (a certificate for localhost): {@link #endpoint()} is {@code
     * https://localhost:PORT}.
     */
    public static S3ProxyProcess startTls(
            Path workDir, Path objects, Path keyStore, String keyStorePassword) throws Exception {
        return start(workDir, objects, keyStore, keyStorePassword);
    }

    private static S3ProxyProcess start(
            Path workDir, Path objects, Path keyStore, String keyStorePassword) throws Exception {
        boolean tls = keyStore != null;
        // Keys of this process alone: on a shared host a key written in the sources would open the
        // local bucket to everyone.
        String accessKey = "tfstream-local-" + randomText(6);
        String secretKey = randomText(24);
        Path basedir = Files.createDirectories(objects.toAbsolutePath());
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path props = workDir.resolve("s3proxy.properties");
        // Holds the proxy's secret key (and the key store's password): owner only.
        OwnerOnlyFiles.write(
                props,
                String.join(
                        "\n",
                        tls
                                ? "s3proxy.secure-endpoint=https://127.0.0.1:"
                                        + port
                                        + "\ns3proxy.keystore-path="
                                        + keyStore.toAbsolutePath()
                                        + "\ns3proxy.keystore-password="
                                        + keyStorePassword
                                : "s3proxy.endpoint=http://127.0.0.1:" + port,
                        "s3proxy.authorization=aws-v2-or-v4",
                        "s3proxy.identity=" + accessKey,
                        "s3proxy.credential=" + secretKey,
                        "jclouds.provider=filesystem-nio2",
                        "jclouds.filesystem.basedir=" + basedir,
                        ""));
        String jar = locateJar().toString();
        Process p =
                new ProcessBuilder(
                                List.of(
                                        Path.of(System.getProperty("java.home"), "bin", "java")
                                                .toString(),
                                        "-Xmx256m",
                                        "-jar",
                                        jar,
                                        "--properties",
                                        props.toString()))
                        .redirectErrorStream(true)
                        .redirectOutput(workDir.resolve("s3proxy.log").toFile())
                        .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                new Socket("127.0.0.1", port).close();
                break;
            } catch (IOException notYet) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    p.destroyForcibly();
                    throw new IllegalStateException(
                            "S3Proxy did not start; see " + workDir.resolve("s3proxy.log"));
                }
                Thread.sleep(200);
            }
        }
        return new S3ProxyProcess(p, port, basedir, tls, accessKey, secretKey);
    }

    /**
     * The S3Proxy jar: system property {@code s3proxy.jar}, else environment variable {@code
     * TFSTREAM_S3PROXY_JAR}, else {@code s3proxy/s3proxy.jar} next to the jar this class runs from
     * (the build puts it there for the CLI jar).
     */
    public static Path locateJar() {
        List<String> tried = new java.util.ArrayList<>();
        String prop = System.getProperty("s3proxy.jar");
        String env = System.getenv("TFSTREAM_S3PROXY_JAR");
        for (String candidate : new String[] {prop, env}) {
            if (candidate != null) {
                if (Files.isRegularFile(Path.of(candidate))) {
                    return Path.of(candidate);
                }
                tried.add(candidate);
            }
        }
        try {
            Path self =
                    Path.of(
                            S3ProxyProcess.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
            Path beside = self.getParent().resolve("s3proxy").resolve("s3proxy.jar");
            if (Files.isRegularFile(beside)) {
                return beside;
            }
            tried.add(beside.toString());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            tried.add("(the location of the running jar: " + e.getMessage() + ")");
        }
        throw new IllegalStateException(
                "S3Proxy jar not found (tried "
                        + String.join(", ", tried)
                        + "): build with mvn -pl cli -am package, or set TFSTREAM_S3PROXY_JAR");
    }

    /** Writes an {@code s3.credentials-file} with this S3Proxy's keys; returns {@code file}. */
    public Path writeCredentials(Path file) throws IOException {
        return writeCredentialsFile(file, accessKey, secretKey);
    }

    /**
     * Writes a job's {@code s3.credentials-file} (as {@code io.tfstream.job.S3Settings} reads it)
     * holding these keys, readable by its owner only (created so: never readable by others, not
     * even for a moment); returns {@code file}.
     */
    public static Path writeCredentialsFile(Path file, String accessKey, String secretKey)
            throws IOException {
        return OwnerOnlyFiles.write(
                file, "access-key=" + accessKey + "\nsecret-key=" + secretKey + "\n");
    }

    /** This process's access key, made for it at its start. */
    public String accessKey() {
        return accessKey;
    }

    /** This process's secret key, made for it at its start. */
    public String secretKey() {
        return secretKey;
    }

    /** {@code bytes} random bytes as URL-safe Base64 without padding. */
    private static String randomText(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** CPU time the S3Proxy process has used so far, in seconds (0 when the OS does not tell). */
    public double cpuSeconds() {
        return process.toHandle()
                        .info()
                        .totalCpuDuration()
                        .map(java.time.Duration::toNanos)
                        .orElse(0L)
                / 1e9;
    }

    /**
     * Bytes the S3Proxy process has read and written through system calls so far ({@code rchar},
     * {@code wchar} of {@code /proc/<pid>/io}: sockets and files alike), or zeros where the OS does
     * not tell.
     */
    public long[] ioBytes() {
        try {
            long read = 0;
            long written = 0;
            for (String line :
                    Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "io"))) {
                if (line.startsWith("rchar:")) {
                    read = Long.parseLong(line.substring(6).trim());
                } else if (line.startsWith("wchar:")) {
                    written = Long.parseLong(line.substring(6).trim());
                }
            }
            return new long[] {read, written};
        } catch (IOException | RuntimeException notLinux) {
            return new long[] {0, 0};
        }
    }

    public String endpoint() {
        return tls ? "https://localhost:" + port : "http://127.0.0.1:" + port;
    }

    /** Creates a bucket (a directory of the filesystem backend). */
    public Path createBucket(String name) throws IOException {
        return Files.createDirectories(basedir.resolve(name));
    }

    /** Where the objects of {@code bucket} are stored, one file per key. */
    public Path bucketDir(String bucket) {
        return basedir.resolve(bucket);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
