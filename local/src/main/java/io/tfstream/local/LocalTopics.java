package io.tfstream.local;

import io.tfstream.job.KafkaStartupChecks;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The topics of a run: {@code examples} and its companions on the embedded broker, names carrying
 * the run id on a broker given with {@code --broker} so that runs never share a topic.
 */
record LocalTopics(String input, String dlq, String records, String batches, String alerts) {

    /** The topics of run {@code runId}; the empty id names those of the embedded broker. */
    static LocalTopics of(String runId) {
        String base = runId.isEmpty() ? "examples" : "tfstream-local-" + runId;
        return new LocalTopics(
                base, base + "-dlq", base + "-records", base + "-batches", base + "-alerts");
    }

    /** Creates every topic with {@code partitions} partitions, replication 1. */
    void create(LocalBroker broker, int partitions) throws Exception {
        Properties p = broker.properties();
        p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(
                            List.of(input, dlq, records, batches, alerts).stream()
                                    .map(t -> new NewTopic(t, partitions, (short) 1))
                                    .toList())
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new LocalRun.UsageException(
                    KafkaStartupChecks.failure(
                            "local run",
                            broker.bootstrap(),
                            "create the run's topics",
                            e.getCause()),
                    e);
        }
    }
}
