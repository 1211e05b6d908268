package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** What damage in a file does. */
@PublicEvolving
public enum OnCorruption {
    /** The region goes to the dead-letter output; reading resumes after it. */
    DEAD_LETTER,
    /** The job fails (no restart: the file would fail again). */
    FAIL
}
