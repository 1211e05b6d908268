package io.tfstream.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.RuntimeVersion;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;

/**
 * Guards the version set the operators are built on, the Flink line's (the build passes its
 * versions as system properties). The Kafka connector's exactly-once sink reaches into the
 * producer: 5.0.0-2.2 breaks with kafka-clients 4.3 ({@code NoSuchMethodError
 * TransactionalRequestResult.await()}), so the parent's pin must win over what the connector
 * declares.
 */
class ClasspathPinsTest {

    @Test
    void kafkaClientsAreTheLinesPin() {
        String v = AppInfoParser.getVersion();
        assertEquals(System.getProperty("tfstream.kafka.clients.version"), v, "kafka-clients");
    }

    @Test
    void flinkIsTheLinesRelease() {
        String v = EnvironmentInformation.getVersion();
        assertEquals(System.getProperty("tfstream.flink.version"), v, "Flink on the classpath");
        assertTrue(v.startsWith(System.getProperty("tfstream.flink.line") + "."), v);
    }

    @Test
    void protobufRuntimeIsThe4xLineProtocGeneratesFor() throws ReflectiveOperationException {
        // Read reflectively: the constant itself would be inlined from compile time.
        int major = RuntimeVersion.class.getField("MAJOR").getInt(null);
        assertEquals(4, major, "protobuf-java runtime major version");
    }
}
