package io.tfstream.sql;

import io.tfstream.api.options.ParseOptions;
import io.tfstream.api.options.SchemaOptions;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.Factory;

/**
 * What the {@code tf-example} and {@code tfrecord} format factories share: the identifier, no
 * required option, the format's optional options, and the parse options both read as the job
 * declares them: {@link ParseOptions} (the parse limits) and {@link SchemaOptions#LEGACY_DEFAULTS}.
 */
abstract class ExampleFormatFactoryBase implements Factory {
    private final String identifier;
    private final Set<ConfigOption<?>> options;

    ExampleFormatFactoryBase(String identifier, Set<ConfigOption<?>> options) {
        this.identifier = identifier;
        Set<ConfigOption<?>> all = new LinkedHashSet<>(options);
        all.addAll(ParseOptions.OPTIONS.options());
        all.add(SchemaOptions.LEGACY_DEFAULTS);
        this.options = Set.copyOf(all);
    }

    /** The parse limits of a table's format options, checked; errors name the table's keys. */
    static ParseLimits limits(ReadableConfig formatOptions, String prefix) {
        try {
            return ParseOptions.limits(formatOptions, prefix);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    /** The fixed-length defaults {@code <prefix>legacy-defaults} picks. */
    static FixedLenDefaults defaults(ReadableConfig formatOptions) {
        return formatOptions.get(SchemaOptions.LEGACY_DEFAULTS)
                ? FixedLenDefaults.LEGACY
                : FixedLenDefaults.NONE;
    }

    @Override
    public final String factoryIdentifier() {
        return identifier;
    }

    @Override
    public final Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public final Set<ConfigOption<?>> optionalOptions() {
        return options;
    }
}
