package io.tfstream.job;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The job's configuration as one or more stages see it: a stage's own option (its relative key,
 * {@code target-size}) reads the job's key under the stage's prefix ({@code shards.target-size}).
 * The library builders' {@code fromConfig} read a view, so a key maps to a field in one place.
 */
final class StageView implements ReadableConfig {
    private final Configuration conf;
    private final List<JobOptionStage> stages;

    StageView(Configuration conf, List<JobOptionStage> stages) {
        this.conf = conf;
        this.stages = stages;
    }

    @Override
    public <T> T get(ConfigOption<T> option) {
        return conf.get(jobOption(option));
    }

    @Override
    public <T> Optional<T> getOptional(ConfigOption<T> option) {
        return conf.getOptional(jobOption(option));
    }

    /** Whether the job's configuration sets {@code option}. */
    boolean has(ConfigOption<?> option) {
        return conf.contains(jobOption(option));
    }

    /** {@code option} when set, else null: for the builders' "unset" arguments. */
    <T> T orNull(ConfigOption<T> option) {
        return getOptional(option).orElse(null);
    }

    /** The set options of the stages, by relative key. */
    @Override
    public Map<String, String> toMap() {
        Map<String, String> m = new TreeMap<>();
        Map<String, String> all = conf.toMap();
        for (JobOptionStage s : stages) {
            for (ConfigOption<?> o : s.options()) {
                String v = all.get(o.key());
                if (v != null) {
                    m.putIfAbsent(o.key().substring(s.prefix().length()), v);
                }
            }
        }
        return m;
    }

    private <T> ConfigOption<T> jobOption(ConfigOption<T> option) {
        for (JobOptionStage s : stages) {
            if (s.owns(option)) {
                return s.option(option);
            }
        }
        // A stage option read through a view that does not hold its stage is a mapping bug.
        throw new IllegalArgumentException(option.key() + " is in none of this view's stages");
    }
}
