package io.tfstream.api.options;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * One stage's options, in the order docs list them: each a Flink {@link ConfigOption} whose key is
 * relative to wherever the stage is configured ({@code parse.} in the job, {@code tf-example.} in a
 * SQL table), with the type of its values and the check its values must pass. The job, the SQL
 * formats and the CLI read these lists, so an option is declared, defaulted, described and checked
 * in one place.
 */
@PublicEvolving
public final class OptionList {
    private final List<ConfigOption<?>> options;
    private final Map<ConfigOption<?>, Class<?>> types;
    private final Map<ConfigOption<?>, OptionCheck<?>> checks;

    private OptionList(
            List<ConfigOption<?>> options,
            Map<ConfigOption<?>, Class<?>> types,
            Map<ConfigOption<?>, OptionCheck<?>> checks) {
        this.options = List.copyOf(options);
        this.types = types;
        this.checks = checks;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The options, keys relative to the stage. */
    public List<ConfigOption<?>> options() {
        return options;
    }

    /** The Java type of {@code option}'s values ({@link List} for lists of names). */
    public Class<?> type(ConfigOption<?> option) {
        Class<?> t = types.get(option);
        if (t == null) {
            throw new IllegalArgumentException(option.key() + " is not in this list");
        }
        return t;
    }

    /**
     * The values {@code option} accepts when it is an enum option: those of its {@link
     * OptionCheck#oneOf} check, else every constant; empty for other options.
     */
    public List<?> accepted(ConfigOption<?> option) {
        Class<?> t = type(option);
        if (checks.get(option) instanceof OptionCheck.OneOf<?> oneOf) {
            return oneOf.values();
        }
        return t.isEnum() ? List.of(t.getEnumConstants()) : List.of();
    }

    /**
     * Checks {@code value} of {@code option}; a refused value fails with "invalid value 'v' for
     * NAME: expected ...", {@code name} being how the reader set it (a job key, a SQL option, a
     * builder method).
     */
    @SuppressWarnings("unchecked")
    public <T> T check(ConfigOption<T> option, T value, String name) {
        type(option);
        OptionCheck<T> c = (OptionCheck<T>) checks.get(option);
        if (value != null && c != null) {
            c.check(value, name);
        }
        return value;
    }

    /** The value of {@code option} in {@code config} (keys relative to the stage), checked. */
    public <T> T get(ReadableConfig config, ConfigOption<T> option, String prefix) {
        return check(option, config.get(option), prefix + option.key());
    }

    /** Checks every option set in {@code config}; errors name the key as {@code prefix + key}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void checkAll(ReadableConfig config, String prefix) {
        for (ConfigOption<?> o : options) {
            config.getOptional(o).ifPresent(v -> check((ConfigOption) o, v, prefix + o.key()));
        }
    }

    /**
     * The same option under {@code prefix + key}: type, default and description kept, for a
     * configuration that holds the stage among others (the job's {@code parse.*}).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T> ConfigOption<T> prefixed(String prefix, ConfigOption<T> option) {
        Class<?> t = type(option);
        ConfigOptions.OptionBuilder key = ConfigOptions.key(prefix + option.key());
        ConfigOptions.TypedConfigOptionBuilder typed;
        if (t == List.class) {
            ConfigOptions.ListConfigOptionBuilder<String> list = key.stringType().asList();
            ConfigOption<List<String>> o =
                    option.hasDefaultValue()
                            ? list.defaultValues(
                                    ((List<String>) option.defaultValue()).toArray(new String[0]))
                            : list.noDefaultValue();
            return (ConfigOption<T>) o.withDescription(option.description());
        } else if (t == String.class) {
            typed = key.stringType();
        } else if (t == Integer.class) {
            typed = key.intType();
        } else if (t == Long.class) {
            typed = key.longType();
        } else if (t == Double.class) {
            typed = key.doubleType();
        } else if (t == Boolean.class) {
            typed = key.booleanType();
        } else if (t == Duration.class) {
            typed = key.durationType();
        } else if (t == MemorySize.class) {
            typed = key.memoryType();
        } else if (t.isEnum()) {
            typed = key.enumType((Class) t);
        } else {
            throw new IllegalStateException("no option type " + t);
        }
        ConfigOption<T> o =
                option.hasDefaultValue()
                        ? typed.defaultValue(option.defaultValue())
                        : typed.noDefaultValue();
        return o.withDescription(option.description());
    }

    /** Collects a stage's options in order. */
    public static final class Builder {
        private final List<ConfigOption<?>> options = new ArrayList<>();
        private final Map<ConfigOption<?>, Class<?>> types = new IdentityHashMap<>();
        private final Map<ConfigOption<?>, OptionCheck<?>> checks = new IdentityHashMap<>();

        private Builder() {}

        /** An option whose type is that of its default. */
        public <T> Builder add(ConfigOption<T> option) {
            if (!option.hasDefaultValue()) {
                throw new IllegalArgumentException(option.key() + " has no default: give its type");
            }
            return add(option, option.defaultValue().getClass(), null);
        }

        /** An option whose type is that of its default, its values checked by {@code check}. */
        public <T> Builder add(ConfigOption<T> option, OptionCheck<? super T> check) {
            add(option);
            checks.put(option, check);
            return this;
        }

        /** An option of values of {@code type} ({@link List} for a list of names). */
        public <T> Builder add(
                ConfigOption<T> option, Class<?> type, OptionCheck<? super T> check) {
            if (types.put(option, type) != null) {
                throw new IllegalArgumentException(option.key() + " added twice");
            }
            options.add(option);
            if (check != null) {
                checks.put(option, check);
            }
            return this;
        }

        /** Adds every option of {@code other} (a stage made of stages). */
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Builder addAll(OptionList other) {
            for (ConfigOption<?> o : other.options) {
                add((ConfigOption) o, other.types.get(o), (OptionCheck) other.checks.get(o));
            }
            return this;
        }

        public OptionList build() {
            return new OptionList(
                    options,
                    Collections.unmodifiableMap(new IdentityHashMap<>(types)),
                    Collections.unmodifiableMap(new IdentityHashMap<>(checks)));
        }
    }
}
