package io.tfstream.job;

import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.EventTimeOptions;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.api.options.OptionList;
import io.tfstream.api.options.ParseOptions;
import io.tfstream.api.options.PayloadOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.api.options.ShardOptions;
import io.tfstream.api.options.SourceFormatOptions;
import io.tfstream.api.options.StatisticsOptions;
import io.tfstream.api.options.ValidationOptions;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * One stage's option list under the prefix the job gives it ({@code parse.} for {@link
 * ParseOptions}): the job's keys are the stage's keys with the prefix, same type, default,
 * description and check. The job adds nothing else to a stage's options.
 */
public final class JobOptionStage {
    public static final JobOptionStage FILE_SOURCE =
            new JobOptionStage("source.files.", FileSourceOptions.OPTIONS);
    public static final JobOptionStage SOURCE =
            new JobOptionStage("source.", KafkaSourceOptions.OPTIONS);
    public static final JobOptionStage CONVERT =
            new JobOptionStage("source.", SourceFormatOptions.OPTIONS);
    public static final JobOptionStage SCHEMA =
            new JobOptionStage("schema.", SchemaOptions.OPTIONS);
    public static final JobOptionStage PARSE = new JobOptionStage("parse.", ParseOptions.OPTIONS);
    public static final JobOptionStage EVENT_TIME =
            new JobOptionStage("event-time.", EventTimeOptions.OPTIONS);
    public static final JobOptionStage BATCH = new JobOptionStage("batch.", BatchOptions.OPTIONS);
    public static final JobOptionStage DEAD_LETTERS =
            new JobOptionStage("dlq.", DeadLetterOptions.OPTIONS);
    public static final JobOptionStage KAFKA_SINKS =
            new JobOptionStage("output.", KafkaSinkOptions.OPTIONS);
    public static final JobOptionStage PAYLOADS =
            new JobOptionStage("output.batches.", PayloadOptions.OPTIONS);
    public static final JobOptionStage SHARDS = new JobOptionStage("shards.", ShardOptions.OPTIONS);
    public static final JobOptionStage VALIDATION =
            new JobOptionStage("validation.", ValidationOptions.OPTIONS);
    public static final JobOptionStage STATISTICS =
            new JobOptionStage("statistics.", StatisticsOptions.OPTIONS);

    private final String prefix;
    private final OptionList list;
    // stage option -> job option, and back; identity: one job option per stage option
    private final Map<ConfigOption<?>, ConfigOption<?>> prefixed = new IdentityHashMap<>();
    private final Map<ConfigOption<?>, ConfigOption<?>> relative = new IdentityHashMap<>();
    private final List<ConfigOption<?>> options = new ArrayList<>();

    JobOptionStage(String prefix, OptionList list) {
        this.prefix = prefix;
        this.list = list;
        for (ConfigOption<?> o : list.options()) {
            ConfigOption<?> p = prefix.isEmpty() ? o : list.prefixed(prefix, o);
            prefixed.put(o, p);
            relative.put(p, o);
            options.add(p);
        }
    }

    /** The job's option for {@code stageOption}. */
    @SuppressWarnings("unchecked")
    public <T> ConfigOption<T> option(ConfigOption<T> stageOption) {
        ConfigOption<?> p = prefixed.get(stageOption);
        if (p == null) {
            throw new IllegalArgumentException(stageOption.key() + " is not in " + prefix);
        }
        return (ConfigOption<T>) p;
    }

    /** Whether {@code stageOption} is one of this stage's own options. */
    boolean owns(ConfigOption<?> stageOption) {
        return prefixed.containsKey(stageOption);
    }

    /** The prefix of this stage's keys in the job ({@code shards.}). */
    String prefix() {
        return prefix;
    }

    /** The job's options of this stage, in order. */
    List<ConfigOption<?>> options() {
        return options;
    }

    boolean has(ConfigOption<?> jobOption) {
        return relative.containsKey(jobOption);
    }

    /** The Java type of {@code jobOption}'s values. */
    Class<?> type(ConfigOption<?> jobOption) {
        return list.type(relative.get(jobOption));
    }

    /** The values an enum {@code jobOption} accepts, in order. */
    java.util.List<?> accepted(ConfigOption<?> jobOption) {
        return list.accepted(relative.get(jobOption));
    }

    /** Checks the value of {@code jobOption} in {@code conf}; an error names the job key. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    void check(Configuration conf, ConfigOption<?> jobOption) {
        ConfigOption stage = relative.get(jobOption);
        list.check(stage, conf.get(jobOption), jobOption.key());
    }
}
