package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.operators.source.SourceRecordSerializer;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.junit.jupiter.api.Test;

/** {@link TfstreamKafkaSource}: defaults, the required brokers and topics, bad settings named. */
class TfstreamKafkaSourceTest {
    private static TfstreamKafkaSourceBuilder topics() {
        return TfstreamKafkaSource.builder()
                .setBootstrapServers("localhost:9092")
                .setTopics(List.of("in"));
    }

    private static String failure(TfstreamKafkaSourceBuilder b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void unboundedSourceRecordsReadCommittedByDefault() {
        var source = topics().build();
        assertEquals(Boundedness.CONTINUOUS_UNBOUNDED, source.getBoundedness());
        assertEquals(SourceRecordSerializer.typeInfo(), source.getProducedType());
        assertEquals("read_committed", topics().consumerProperties().get("isolation.level"));
    }

    @Test
    void settingsReachTheSource() {
        Properties p = new Properties();
        p.setProperty("isolation.level", "read_uncommitted");
        p.setProperty("max.poll.records", "10");
        TfstreamKafkaSourceBuilder b =
                TfstreamKafkaSource.builder()
                        .setBootstrapServers("localhost:9092")
                        .setTopicPattern(Pattern.compile("in-.*"))
                        .setGroupId("g")
                        .setStartingOffsets(OffsetsInitializer.earliest())
                        .setBounded(OffsetsInitializer.latest())
                        .setProperties(p);
        assertEquals(Boundedness.BOUNDED, b.build().getBoundedness());
        Properties c = b.consumerProperties();
        assertEquals("read_uncommitted", c.get("isolation.level"), "the user's own setting wins");
        assertEquals("10", c.get("max.poll.records"));
        Properties own = new Properties();
        own.setProperty("max.poll.records", "10");
        assertEquals(
                "read_committed",
                topics().setProperties(own).consumerProperties().get("isolation.level"));
        assertEquals(1, own.size(), "the given properties are not changed");
    }

    @Test
    void requiredAndBadSettingsAreNamed() {
        assertTrue(
                failure(TfstreamKafkaSource.builder().setTopics(List.of("in")))
                        .startsWith("bootstrapServers"));
        assertTrue(
                failure(TfstreamKafkaSource.builder().setBootstrapServers("b:1"))
                        .startsWith("set exactly one of topics and topicPattern"));
        assertTrue(
                failure(topics().setTopicPattern(Pattern.compile("x")))
                        .startsWith("set exactly one of topics and topicPattern"));
        assertTrue(failure(topics().setTopics(List.of())).startsWith("topics"));
        assertTrue(failure(topics().setTopics(Arrays.asList("a", " "))).startsWith("topics"));
        assertTrue(failure(topics().setGroupId("")).startsWith("groupId"));
        assertTrue(failure(topics().setStartingOffsets(null)).startsWith("startingOffsets"));
        assertTrue(failure(topics().setProperties(null)).startsWith("properties"));
    }
}
