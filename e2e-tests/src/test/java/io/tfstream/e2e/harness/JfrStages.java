package io.tfstream.e2e.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/** The harness's per-stage CPU breakdown: JFR execution samples sorted into the job's stages. */
final class JfrStages {
    private JfrStages() {}

    /** The stages, in report order. */
    static final List<String> STAGES =
            List.of("source", "parse", "encode", "shard write", "kafka produce", "broker", "other");

    /** Execution samples by stage: the frame nearest the top of the stack that names one. */
    static Map<String, Long> of(Path jfr) throws IOException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String st : STAGES) {
            counts.put(st, 0L);
        }
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")
                    || e.getStackTrace() == null) {
                continue;
            }
            String stage = "other";
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                String c = f.getMethod().getType().getName();
                String found = stage(c);
                if (found != null) {
                    stage = found;
                    break;
                }
            }
            counts.merge(stage, 1L, Long::sum);
        }
        return counts;
    }

    private static String stage(String c) {
        if (c.startsWith("io.tfstream.parse.") || c.startsWith("io.tfstream.operators.parse.")) {
            return "parse";
        }
        if (c.startsWith("io.tfstream.payload.") || c.startsWith("io.tfstream.proto.")) {
            return "encode";
        }
        if (c.startsWith("io.tfstream.tfrecord.")
                || c.startsWith("io.tfstream.operators.shards.")
                || c.startsWith("java.util.zip.")
                || c.startsWith("org.apache.flink.connector.file.")
                || c.startsWith("org.apache.hadoop.")
                || c.startsWith("com.amazonaws.")) {
            return "shard write";
        }
        if (c.startsWith("org.apache.kafka.clients.producer.")
                || c.startsWith("org.apache.flink.connector.kafka.sink.")) {
            return "kafka produce";
        }
        if (c.startsWith("org.apache.kafka.clients.consumer.")
                || c.startsWith("org.apache.flink.connector.kafka.source.")
                || c.startsWith("io.tfstream.operators.source.")) {
            return "source";
        }
        if (c.startsWith("kafka.")
                || c.startsWith("org.apache.kafka.server.")
                || c.startsWith("org.apache.kafka.storage.")
                || c.startsWith("org.apache.kafka.raft.")
                || c.startsWith("org.apache.kafka.coordinator.")
                || c.startsWith("org.apache.kafka.controller.")) {
            return "broker";
        }
        return null;
    }
}
