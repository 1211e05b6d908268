package io.tfstream.testkit;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A KRaft broker for the whole test class, started before its first test and closed after its last;
 * transactions may stay open 15 minutes, longer than any job's transaction timeout here. A
 * subclass's own {@code @BeforeAll} (its topics, say) runs after the broker started.
 */
public abstract class KafkaTestBase {
    protected static KafkaTestCluster kafka;

    @BeforeAll
    protected static void startKafka() throws Exception {
        kafka = KafkaTestCluster.start(Duration.ofMinutes(15).toMillis());
    }

    @AfterAll
    protected static void stopKafka() {
        kafka.close();
    }
}
