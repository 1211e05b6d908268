package io.tfstream.cli;

/**
 * Process exit codes of the {@code tfstream} CLI, the same for every command; {@code tfstream
 * --help} and docs/cli.md#exit-codes list them.
 */
public final class ExitCodes {
    /** Everything parsed or verified. */
    public static final int OK = 0;

    /**
     * Bad data, reported while the command went on: a batch printed an error line, a file read is
     * damaged (or differs from its manifest), a record did not parse, {@code recover} skipped
     * something.
     */
    public static final int DATA_ERROR = 1;

    /** Usage error, or an unreadable or corrupt input file. */
    public static final int USAGE = 2;

    /** The schema or feature spec was rejected. */
    public static final int SPEC_REJECTED = 3;

    /**
     * A streaming job failed ({@code run}, {@code local}; not bad data: that goes to the
     * dead-letter output).
     */
    public static final int JOB_FAILED = 4;

    private ExitCodes() {}

    static int forException(Throwable t) {
        return USAGE;
    }
}
