package io.tfstream.parse;

/**
 * What a lenient batch parse gives back, whatever the record type: the number of output rows and
 * for each row the index of the input record it came from (rejected records have no row).
 */
public interface ParsedRows {
    /** Number of output rows (the batch dimension). */
    int rows();

    /** The input record index of output row {@code row}. */
    int recordIndex(int row);
}
