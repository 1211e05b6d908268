package io.tfstream.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Writes the committed alerts of a run's alerts topic to {@code alerts.jsonl}, one per line. */
final class AlertsDrain {
    private AlertsDrain() {}

    /** Drains {@code topic} into {@code file}; returns the number of alerts. */
    static long drain(LocalBroker broker, String topic, Path file) throws IOException {
        return TopicDrain.toLines(
                broker, topic, file, r -> new String(r.value(), StandardCharsets.UTF_8));
    }
}
