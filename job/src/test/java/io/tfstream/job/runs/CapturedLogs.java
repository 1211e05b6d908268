package io.tfstream.job.runs;

import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * Everything this JVM logs at INFO and above (where Flink and Kafka print every setting) while it
 * is open, kept in memory for a test to search; the test configuration's level is restored on
 * close.
 */
final class CapturedLogs implements AutoCloseable {
    private final StringWriter text = new StringWriter();
    private final WriterAppender appender;
    private final Level previous;
    private final java.util.Map<String, Appender> consoles;

    CapturedLogs() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        appender =
                WriterAppender.newBuilder()
                        .setName("captured")
                        .setTarget(text)
                        .setLayout(PatternLayout.newBuilder().withPattern("%c - %m%n%ex").build())
                        .build();
        appender.start();
        LoggerConfig root = config.getRootLogger();
        previous = root.getLevel();
        // The console keeps the test configuration's level; only the capture sees INFO.
        consoles = new java.util.HashMap<>(root.getAppenders());
        consoles.keySet().forEach(root::removeAppender);
        consoles.values().forEach(a -> root.addAppender(a, previous, null));
        root.addAppender(appender, Level.INFO, null);
        root.setLevel(Level.INFO);
        ctx.updateLoggers();
    }

    /** What was logged so far. */
    String text() {
        synchronized (text) {
            return text.toString();
        }
    }

    @Override
    public void close() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        LoggerConfig root = ctx.getConfiguration().getRootLogger();
        root.removeAppender("captured");
        consoles.keySet().forEach(root::removeAppender);
        consoles.values().forEach(a -> root.addAppender(a, null, null));
        root.setLevel(previous);
        ctx.updateLoggers();
        appender.stop();
    }
}
