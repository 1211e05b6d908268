package io.tfstream.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;

/**
 * Silences every log but tfstream's own while open, for commands that report failures themselves in
 * one line (an embedded job's task failure is otherwise logged with its stack trace by Flink's task
 * and source threads before the command says what went wrong). Closing restores the levels.
 */
final class QuietLogs implements AutoCloseable {
    private static final String OURS = "io.tfstream";

    private final Level root;
    private final boolean oursConfigured;
    private final Level ours;

    private QuietLogs() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        LoggerConfig rootConfig = config.getRootLogger();
        root = rootConfig.getLevel();
        LoggerConfig oursConfig = config.getLoggers().get(OURS);
        oursConfigured = oursConfig != null;
        ours = oursConfigured ? oursConfig.getLevel() : null;
        if (!oursConfigured) {
            LoggerConfig added = new LoggerConfig(OURS, root, true);
            config.addLogger(OURS, added);
        }
        rootConfig.setLevel(Level.OFF);
        ctx.updateLoggers();
    }

    /** Quiet until closed, unless {@code verbose}; then nothing changes. */
    static QuietLogs unless(boolean verbose) {
        return verbose ? null : new QuietLogs();
    }

    @Override
    public void close() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        config.getRootLogger().setLevel(root);
        if (oursConfigured) {
            config.getLoggers().get(OURS).setLevel(ours);
        } else {
            config.removeLogger(OURS);
        }
        ctx.updateLoggers();
    }
}
