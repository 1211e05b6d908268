package io.tfstream.job;

/**
 * The job's configuration cannot be used: an unknown key, an invalid value, a missing setting, an
 * unreadable file, or a Kafka cluster that does not match it. The message names the key and what is
 * accepted.
 */
public class JobConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public JobConfigException(String message) {
        super(message);
    }

    public JobConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
