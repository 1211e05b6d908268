package io.tfstream.tfrecord;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * Counts the records a damaged region held while the reader steps over it byte by byte: starting at
 * the damaged record's header, each header whose length CRC is valid gives the offset of the next
 * header. The count is known when that chain lands exactly on the region's end (the next good
 * record or the clean end of the stream), or when its last frame runs past the end of the stream (a
 * record cut short is a record lost). A header that fails its length CRC, or a chain that
 * overshoots the next good record, leaves the count unknown: nothing says where records started
 * after that.
 *
 * <p>Needs no copy of the region: the reader shows it each position it is about to skip.
 */
final class SkippedRecordWalk {
    private long nextHeader;
    private long records;
    private boolean broken;

    /** A walk from the header of the damaged record at stream offset {@code from}. */
    SkippedRecordWalk(long from) {
        this.nextHeader = from;
    }

    /**
     * Called with the window at a position the reader is about to skip; follows the header there if
     * the chain expects one.
     */
    void passing(InputWindow window, MaskedCrc32c crc) throws IOException {
        if (broken || window.position() != nextHeader) {
            return;
        }
        records++;
        if (!window.ensure(TfRecordFraming.HEADER_SIZE)) {
            // A header cut short by the end of the stream: the last record, truncated.
            nextHeader = Long.MAX_VALUE;
            return;
        }
        if (!TfRecordFraming.isValidHeader(window.buf, window.pos, crc)) {
            broken = true;
            return;
        }
        long length = TfRecordFraming.getLength(window.buf, window.pos);
        if (length < 0 || length > Long.MAX_VALUE - nextHeader - TfRecordFraming.OVERHEAD) {
            broken = true;
            return;
        }
        nextHeader += length + TfRecordFraming.OVERHEAD;
    }

    /**
     * The records in the region ending at {@code to}, or empty when they cannot be counted; {@code
     * endOfStream} when nothing follows the region.
     */
    OptionalLong recordsLost(long to, boolean endOfStream) {
        if (!broken && (nextHeader == to || (endOfStream && nextHeader > to))) {
            return OptionalLong.of(records);
        }
        return OptionalLong.empty();
    }
}
