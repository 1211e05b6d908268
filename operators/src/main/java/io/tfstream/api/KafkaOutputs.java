package io.tfstream.api;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

/** The checks the Kafka record serializers share: a topic named, and named by its key. */
final class KafkaOutputs {
    private KafkaOutputs() {}

    static void requireTopic(String topic) {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("topic must be a non-empty topic name");
        }
    }

    static String topic(ReadableConfig config, ConfigOption<String> option) {
        return config.getOptional(option)
                .filter(t -> !t.isBlank())
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        option.key() + " must be a non-empty topic name"));
    }
}
