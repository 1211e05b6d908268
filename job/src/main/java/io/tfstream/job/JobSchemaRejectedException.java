package io.tfstream.job;

/** The schema or spec was read but tfx-bsl/TFT or TensorFlow would refuse it for this job. */
public final class JobSchemaRejectedException extends JobConfigException {
    private static final long serialVersionUID = 1L;

    public JobSchemaRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
