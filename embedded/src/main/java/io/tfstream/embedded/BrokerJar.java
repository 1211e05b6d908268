package io.tfstream.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The embedded broker's own jar (module {@code broker}: Kafka's server at its own release, with its
 * own Kafka client and logging), a resource beside this class that the build copies there, loaded
 * once per JVM in a class loader whose parent is the platform's. So the Flink line's Kafka client
 * (3.9 on 1.20) and the broker's (4.2) never share a classpath. Only JDK types cross.
 */
final class BrokerJar {
    static final String RESOURCE = "kafka-broker.jar";
    private static final String ENTRY = "io.tfstream.broker.KraftBroker";
    private static ClassLoader loader;

    private BrokerJar() {}

    /**
     * Formats the log directory of the broker configured in {@code config} and starts it with the
     * SCRAM users {@code scramCredentials}; {@code close()} of the result stops it.
     */
    static AutoCloseable start(Path config, List<String> scramCredentials) throws IOException {
        try {
            Method start =
                    Class.forName(ENTRY, true, loader()).getMethod("start", Path.class, List.class);
            return (AutoCloseable) start.invoke(null, config, scramCredentials);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("the embedded Kafka broker did not start: " + cause, cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(RESOURCE + " holds no " + ENTRY, e);
        }
    }

    private static synchronized ClassLoader loader() throws IOException {
        if (loader == null) {
            loader =
                    new URLClassLoader(
                            "tfstream-broker",
                            new URL[] {jar().toUri().toURL()},
                            ClassLoader.getPlatformClassLoader());
        }
        return loader;
    }

    /** The jar as a file: itself from a build's classes, a copy when inside the CLI jar. */
    private static Path jar() throws IOException {
        URL url = BrokerJar.class.getResource(RESOURCE);
        if (url == null) {
            throw new IllegalStateException(
                    RESOURCE
                            + " is not beside "
                            + BrokerJar.class.getName()
                            + ": build the job module (mvn -pl job -am package), which copies it"
                            + " there");
        }
        if ("file".equals(url.getProtocol())) {
            try {
                return Path.of(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException("cannot read " + url, e);
            }
        }
        Path copy = Files.createTempFile("tfstream-kafka-broker", ".jar");
        copy.toFile().deleteOnExit();
        try (InputStream in = url.openStream()) {
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        }
        return copy;
    }
}
