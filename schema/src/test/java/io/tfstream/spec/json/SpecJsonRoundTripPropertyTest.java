package io.tfstream.spec.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.schema.FeatureSpecFromSchema;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.spec.schema.SchemaRejectedException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.Schema;

/** Property: for random valid schemas and specs, spec → SPEC.json → spec is the identity. */
class SpecJsonRoundTripPropertyTest {
    private static final int SCHEMAS = 500;
    private static final int SPECS = 1000;

    @Test
    void schemaDerivedSpecsRoundTrip() throws Exception {
        int sequence = 0;
        int nonEmpty = 0;
        for (int seed = 0; seed < SCHEMAS; seed++) {
            Schema schema = new RandomSchemas(random(seed)).next();
            ParseSpec spec;
            try {
                FixedLenDefaults defaults =
                        seed % 2 == 0 ? FixedLenDefaults.NONE : FixedLenDefaults.LEGACY;
                spec = FeatureSpecFromSchema.derive(schema, defaults).spec();
            } catch (SchemaRejectedException e) {
                fail("seed " + seed + ": valid schema rejected: " + e.getMessage() + "\n" + schema);
                return;
            }
            String json = SpecJsonWriter.write(spec);
            assertEquals(
                    spec, SpecJsonReader.read(json, "seed " + seed), "seed " + seed + ": " + json);
            assertEquals(json, SpecJsonWriter.write(SpecJsonReader.read(json, "again")));
            sequence += spec.isSequence() ? 1 : 0;
            nonEmpty += json.length() > 2 ? 1 : 0;
        }
        assertTrue(sequence > SCHEMAS / 8, "sequence schemas generated: " + sequence);
        assertTrue(nonEmpty > SCHEMAS / 2, "non-empty specs: " + nonEmpty);
    }

    /** A generator per seed; the seed is mixed because consecutive seeds start alike. */
    private static Random random(long seed) {
        return new Random(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
    }

    @Test
    void arbitrarySpecsRoundTrip() throws Exception {
        for (int seed = 0; seed < SPECS; seed++) {
            ParseSpec spec = new RandomSpecs(random(seed)).next();
            String json = SpecJsonWriter.write(spec);
            assertEquals(
                    spec, SpecJsonReader.read(json, "seed " + seed), "seed " + seed + ": " + json);
        }
    }
}
