package io.tfstream.operators.window;

/**
 * What one key's open window holds besides its records, kept in keyed state next to them: the raw
 * bytes buffered (checked against {@code batch.window-max-buffered-bytes}), and, once the window
 * has emitted payloads early, how many and under which {@code batch_id} (so that the payloads of
 * its close continue the numbering under the same id, also after a restart).
 *
 * @param bufferedBytes value bytes of the records buffered now
 * @param partsEmitted payloads emitted before the close (0: none)
 * @param batchId the window's {@code batch_id} once a payload was emitted, else null
 */
record WindowProgress(long bufferedBytes, int partsEmitted, String batchId) {
    /** A window with nothing buffered and nothing emitted. */
    public static final WindowProgress NONE = new WindowProgress(0, 0, null);

    public WindowProgress {
        if (bufferedBytes < 0 || partsEmitted < 0) {
            throw new IllegalArgumentException(
                    "negative window progress: " + bufferedBytes + " bytes, " + partsEmitted);
        }
        if (partsEmitted > 0 && batchId == null) {
            throw new IllegalArgumentException("payloads were emitted without a batch id");
        }
    }

    /** The same with {@code bytes} more buffered. */
    public WindowProgress plusBytes(long bytes) {
        return new WindowProgress(bufferedBytes + bytes, partsEmitted, batchId);
    }
}
