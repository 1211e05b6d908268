package io.tfstream.cli;

/** Process exit codes of the {@code tfstream} CLI (see {@code cli-json.md}). */
public final class ExitCodes {
    /** Everything parsed or verified. */
    public static final int OK = 0;

    /** At least one batch printed an error line, or a verified file is damaged. */
    public static final int DATA_ERROR = 1;

    /** Usage error, or an unreadable or corrupt input file. */
    public static final int USAGE = 2;

    /** The schema or feature spec was rejected. */
    public static final int SPEC_REJECTED = 3;

    /** A streaming job failed (not bad data: that goes to the dead-letter output). */
    public static final int JOB_FAILED = 4;

    private ExitCodes() {}

    static int forException(Throwable t) {
        return USAGE;
    }
}
