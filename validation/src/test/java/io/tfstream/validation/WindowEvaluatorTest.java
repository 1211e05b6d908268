package io.tfstream.validation;

import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.validation.Fixtures.compiled;
import static io.tfstream.validation.Fixtures.example;
import static io.tfstream.validation.Fixtures.types;
import static io.tfstream.validation.Windows.findings;
import static io.tfstream.validation.Windows.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tensorflow.metadata.v0.AnomalyInfo.Type.SCHEMA_MISSING_COLUMN;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowEvaluatorTest {
    /**
     * A required feature absent from every record of a window is the window's missing column and
     * the roll-up of the per-record one: one finding, so one alert and one alert id (regression).
     */
    @Test
    void aRequiredFeatureMissingFromTheWholeWindowIsOneFinding() {
        ValidationSchema s =
                compiled(
                        "feature { name: \"id\" type: INT presence { min_fraction: 1.0 } }\n"
                                + "feature { name: \"x\" type: INT }\n");
        List<Finding> f =
                findings(window(s, List.of(example("x", int64s(1)), example("x", int64s(2)))));
        assertEquals(List.of(SCHEMA_MISSING_COLUMN), types(f));
        assertEquals("id", f.get(0).path().serialized());
        assertEquals("Column dropped", f.get(0).shortDescription());
        assertEquals("Column is completely missing", f.get(0).description());
    }
}
