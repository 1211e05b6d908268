package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.junit.jupiter.api.Test;

/** {@link TfRecordFileSource}: bounded by default, continuous on request, bad settings named. */
class TfRecordFileSourceTest {
    private static String failure(TfRecordFileSourceBuilder b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void boundedByDefaultContinuousOnRequest() {
        assertEquals(
                Boundedness.BOUNDED,
                TfRecordFileSource.builder(List.of("/data")).build().getBoundedness());
        assertEquals(
                Boundedness.CONTINUOUS_UNBOUNDED,
                TfRecordFileSource.builder(List.of("/data/*.tfrecord"))
                        .setContinuous(Duration.ofSeconds(5))
                        .build()
                        .getBoundedness());
    }

    @Test
    void badSettingsAreNamed() {
        assertTrue(failure(TfRecordFileSource.builder(List.of())).startsWith("paths"));
        assertTrue(
                failure(TfRecordFileSource.builder(List.of("/d")).setMaxRecordLength(0))
                        .startsWith("maxRecordLength"));
        assertTrue(
                failure(TfRecordFileSource.builder(List.of("/d")).setCorruptBytesKept(-1))
                        .startsWith("corruptBytesKept"));
        assertTrue(
                failure(TfRecordFileSource.builder(List.of("/d")).setContinuous(Duration.ZERO))
                        .startsWith("continuous"));
        assertTrue(
                failure(TfRecordFileSource.builder(List.of("/d")).setOnCorruption(null))
                        .startsWith("onCorruption"));
    }
}
