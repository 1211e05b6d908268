package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * Validation against the TFMD schema (the job's {@code validation.*}): per-record anomalies and
 * event-time windows evaluated as datasets. Keys are relative to the stage; {@link #OPTIONS} lists
 * them with their types and checks.
 */
@PublicEvolving
public final class ValidationOptions {
    private ValidationOptions() {}

    public static final ConfigOption<Boolean> ENABLED =
            key("enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Validate every accepted record against the TFMD schema of"
                                    + " schema.path (TFDV anomaly types), and each event-time"
                                    + " window of validation.window as a whole; alerts go to"
                                    + " validation.alerts-topic. Needs schema.path (not"
                                    + " spec.path).");

    public static final ConfigOption<String> ENVIRONMENT =
            key("environment")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The schema environment to validate in (e.g. SERVING), as TFDV's"
                                    + " environment argument: a feature is checked when it is"
                                    + " in_environment, or when it is not not_in_environment and"
                                    + " the environment is one of default_environment. Unset:"
                                    + " every feature is checked.");

    public static final ConfigOption<Duration> WINDOW =
            key("window")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "Size of the tumbling event-time windows evaluated as one dataset"
                                    + " (presence, example counts, unique values, drift against"
                                    + " the previous non-empty window). A window fires when the"
                                    + " watermark passes its end; a window without records"
                                    + " fires too (0 examples).");

    public static final ConfigOption<String> ALERTS_TOPIC =
            key("alerts-topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka topic of the alerts (one JSON record per window x feature"
                                    + " path x anomaly type, key = alert_id), written exactly"
                                    + " once with transactional id prefix <job.name>-alerts."
                                    + " Required with validation.enabled; with schema.update:"
                                    + " poll it also gets the SCHEMA alerts of refused schema"
                                    + " files.");

    public static final ConfigOption<String> ANOMALIES_TOPIC =
            key("anomalies-topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka topic of each window's TFDV Anomalies proto (one per window"
                                    + " and feature-path split, key = <window start>/<split>;"
                                    + " for a schema taken up by schema.update: poll one more"
                                    + " per window, key <window start>/<split>/<fingerprint>),"
                                    + " exactly once with prefix <job.name>-anomalies; its"
                                    + " baseline (the schema) is left out when the message would"
                                    + " exceed 900 KiB. Unset: not written.");

    public static final ConfigOption<Integer> SPLITS =
            key("splits")
                    .intType()
                    .defaultValue(-1)
                    .withDescription(
                            "Feature-path hash splits the window evaluation is keyed by (-1: the"
                                    + " job's parallelism), each on its own subtask. More splits"
                                    + " spread large schemas over more subtasks; each window sends"
                                    + " one partial per subtask and split. Set it explicitly to"
                                    + " restore a savepoint at another parallelism: open windows"
                                    + " are kept per split.");

    public static final ConfigOption<Long> MIN_DRIFT_EXAMPLES =
            key("min-drift-examples")
                    .longType()
                    .defaultValue(
                            io.tfstream.validation.ValidationOptions.DEFAULT_MIN_DRIFT_EXAMPLES)
                    .withDescription(
                            "Fewest examples with a feature, in the window and in the previous"
                                    + " one, before its drift comparator is computed (small"
                                    + " samples diverge by chance).");

    public static final ConfigOption<List<String>> ACTIONS =
            key("actions")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "What happens to a record with a per-record anomaly, as NAME=action"
                                    + " entries (';'-separated); NAME an anomaly type (e.g."
                                    + " INT_TYPE_BIG_INT) or a severity (ERROR, WARNING), action"
                                    + " pass, mark (header tfstream.anomalies = the type names)"
                                    + " or divert (dead letter, reason validation). A type's"
                                    + " entry wins over its severity's; a record takes its"
                                    + " strongest action. Unset: pass.");

    public static final ConfigOption<List<String>> SEVERITY_OVERRIDES =
            key("severity-overrides")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "TFDV's severity_overrides as TYPE=SEVERITY entries (';'-separated),"
                                    + " e.g. SCHEMA_NEW_COLUMN=WARNING: the severity of alerts and"
                                    + " Anomalies reasons of that type, and the severity"
                                    + " validation.actions matches. Dataset-level anomalies stay"
                                    + " ERROR, as in TFDV. Unset: every type is ERROR.");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(ENABLED)
                    .add(ENVIRONMENT, String.class, null)
                    .add(
                            WINDOW,
                            (d, name) -> {
                                if (d.toMillis() < 1) {
                                    throw new IllegalArgumentException(
                                            "invalid value for "
                                                    + name
                                                    + ": expected at least 1 ms");
                                }
                            })
                    .add(ALERTS_TOPIC, String.class, null)
                    .add(ANOMALIES_TOPIC, String.class, null)
                    .add(
                            SPLITS,
                            (n, name) -> {
                                if (n == 0 || n < -1) {
                                    throw OptionCheck.invalid(
                                            n, name, "-1 (the parallelism) or a positive integer");
                                }
                            })
                    .add(MIN_DRIFT_EXAMPLES, OptionCheck.atLeast(0))
                    .add(ACTIONS, List.class, null)
                    .add(SEVERITY_OVERRIDES, List.class, null)
                    .build();
}
