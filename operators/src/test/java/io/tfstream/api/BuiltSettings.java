package io.tfstream.api;

import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.operators.parse.ParseSettings;
import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.validation.ValidationSettings;

/**
 * For tests of other modules (the job's configuration): the operator settings a built stage holds,
 * which the public API keeps to itself.
 */
public final class BuiltSettings {
    private BuiltSettings() {}

    public static ShardSettings of(TfRecordShards shards) {
        return shards.settings();
    }

    public static ParseSettings of(TfstreamParse parse) {
        return parse.settings();
    }

    public static ConvertSettings of(TfstreamConvert convert) {
        return convert.settings();
    }

    public static ValidationSettings of(TfstreamValidation validation) {
        return validation.settings();
    }
}
