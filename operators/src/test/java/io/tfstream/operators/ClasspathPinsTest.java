package io.tfstream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.RuntimeVersion;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;

/**
 * Guards the version set the operators are built on. The Kafka connector's exactly-once sink breaks
 * with kafka-clients 4.3 ({@code NoSuchMethodError TransactionalRequestResult.await()}), so the
 * pin to 4.2.x in the parent's dependencyManagement must win over what the connector declares.
 */
class ClasspathPinsTest {

    @Test
    void kafkaClientsArePinnedTo42() {
        String v = AppInfoParser.getVersion();
        assertTrue(v.startsWith("4.2."), "kafka-clients on the classpath is " + v);
    }

    @Test
    void flinkIs22() {
        String v = EnvironmentInformation.getVersion();
        assertTrue(v.startsWith("2.2."), "Flink on the classpath is " + v);
    }

    @Test
    void protobufRuntimeIsThe4xLineProtocGeneratesFor() throws ReflectiveOperationException {
        // Read reflectively: the constant itself would be inlined from compile time.
        int major = RuntimeVersion.class.getField("MAJOR").getInt(null);
        assertEquals(4, major, "protobuf-java runtime major version");
    }
}
