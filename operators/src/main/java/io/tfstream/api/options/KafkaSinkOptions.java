package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * What every Kafka output shares, and the records topic (the job's {@code output.*}). Keys are
 * relative to the stage; {@link #OPTIONS} lists them with their types and checks.
 */
@PublicEvolving
public final class KafkaSinkOptions {
    private KafkaSinkOptions() {}

    public static final ConfigOption<String> BOOTSTRAP_SERVERS =
            key("bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka bootstrap servers of the outputs (default:"
                                    + " source.bootstrap-servers).");

    public static final ConfigOption<String> RECORDS_TOPIC =
            key("records.topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Optional topic of the accepted records, byte for byte with keys and"
                                    + " headers, exactly once.");

    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT =
            key("transaction-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "Kafka transaction timeout of the exactly-once sinks; at most the"
                                    + " broker's transaction.max.timeout.ms and well above"
                                    + " checkpoint.interval plus the longest expected restart.");

    public static final ConfigOption<Boolean> ADOPT_TRANSACTIONS =
            key("adopt-transactions")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Restored from a savepoint or checkpoint whose Kafka outputs wrote under"
                                    + " another job.name, take that name's transactions over:"
                                    + " commit its pending ones and abort its open ones (a renamed"
                                    + " job, the Kafka connector's behaviour). false leaves them to"
                                    + " their own job: for a second job started from the savepoint of"
                                    + " a job that keeps running (blue/green), which would otherwise"
                                    + " fence that job's producers and lose its pre-committed"
                                    + " output.");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(BOOTSTRAP_SERVERS, String.class, null)
                    .add(RECORDS_TOPIC, String.class, null)
                    .add(TRANSACTION_TIMEOUT, OptionCheck.positive())
                    .add(ADOPT_TRANSACTIONS)
                    .build();
}
