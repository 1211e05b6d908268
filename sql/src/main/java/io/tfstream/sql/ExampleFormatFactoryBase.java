package io.tfstream.sql;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.Factory;

/**
 * What the {@code tf-example} and {@code tfrecord} format factories share: the identifier, no
 * required option and the format's optional options.
 */
abstract class ExampleFormatFactoryBase implements Factory {
    private final String identifier;
    private final Set<ConfigOption<?>> options;

    ExampleFormatFactoryBase(String identifier, Set<ConfigOption<?>> options) {
        this.identifier = identifier;
        this.options = options;
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
