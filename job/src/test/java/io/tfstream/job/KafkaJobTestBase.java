package io.tfstream.job;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A KRaft broker for the whole test class, started before its first test and closed after its last;
 * transactions may stay open 15 minutes, longer than any job's transaction timeout here.
 */
abstract class KafkaJobTestBase {
    static KafkaTestCluster kafka;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = KafkaTestCluster.start(Duration.ofMinutes(15).toMillis());
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }
}
