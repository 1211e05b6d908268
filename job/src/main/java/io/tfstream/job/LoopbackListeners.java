package io.tfstream.job;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;

/**
 * The one rule for the listeners of a Flink cluster that a tfstream command starts in its own JVM
 * ({@code tfstream run}, {@code local}, {@code sql}): every port binds to loopback, and the web
 * UI's jar upload (which runs any code it is sent) is off, unless the configuration says otherwise.
 * Flink's own defaults bind the REST API and the blob server to every interface.
 */
public final class LoopbackListeners {
    /** The address every listener binds to and advertises by default. */
    public static final String LOOPBACK = "localhost";

    private LoopbackListeners() {}

    /** {@code conf} with the loopback defaults added where it sets nothing of its own. */
    public static Configuration apply(Configuration conf) {
        setIfAbsent(conf, RestOptions.BIND_ADDRESS, LOOPBACK);
        setIfAbsent(conf, RestOptions.ADDRESS, LOOPBACK);
        setIfAbsent(conf, JobManagerOptions.BIND_HOST, LOOPBACK);
        setIfAbsent(conf, JobManagerOptions.ADDRESS, LOOPBACK);
        setIfAbsent(conf, TaskManagerOptions.BIND_HOST, LOOPBACK);
        setIfAbsent(conf, TaskManagerOptions.HOST, LOOPBACK);
        setIfAbsent(conf, WebOptions.SUBMIT_ENABLE, false);
        return conf;
    }

    private static <T> void setIfAbsent(Configuration conf, ConfigOption<T> option, T value) {
        if (!conf.contains(option)) {
            conf.set(option, value);
        }
    }
}
