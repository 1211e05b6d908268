package io.tfstream.operators.compat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The Kafka connector's sink as the line's connector release (3.4.0-1.20) shows it: its writer
 * state and committables are package-private classes, read here through their public getters, and
 * it adds nothing after its committer.
 */
@Internal
public final class KafkaSinkLine {
    private KafkaSinkLine() {}

    /** The transactional-id prefix a {@code KafkaWriterState} was written under. */
    public static String transactionalIdPrefix(Object writerState) {
        return get(writerState, "getTransactionalIdPrefix");
    }

    /** The transactional id of a {@code KafkaCommittable}. */
    public static String transactionalId(Object committable) {
        return get(committable, "getTransactionalId");
    }

    /** Nothing: this connector release adds no topology after its committer. */
    public static void addPostCommitTopology(
            KafkaSink<?> sink, DataStream<CommittableMessage<Object>> committables) {}

    private static String get(Object target, String getter) {
        try {
            Method m = target.getClass().getMethod(getter);
            m.setAccessible(true); // a public method of a package-private class
            return (String) m.invoke(target);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException(
                    "the Kafka connector's " + target.getClass().getName() + " has no " + getter,
                    e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(getter + " failed", e.getCause());
        }
    }
}
