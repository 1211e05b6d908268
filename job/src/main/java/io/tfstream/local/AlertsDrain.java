package io.tfstream.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the committed alerts of a run's alerts topic to {@code alerts.jsonl}, one per line. */
final class AlertsDrain {
    private AlertsDrain() {}

    /** Drains {@code topic} into {@code file}; returns the number of alerts. */
    static long drain(String bootstrap, String topic, Path file) throws IOException {
        long[] n = {0};
        try (Writer w = Files.newBufferedWriter(file)) {
            TopicDrain.readCommitted(
                    bootstrap,
                    topic,
                    r -> {
                        try {
                            w.write(new String(r.value(), StandardCharsets.UTF_8));
                            w.write('\n');
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        n[0]++;
                    });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return n[0];
    }
}
