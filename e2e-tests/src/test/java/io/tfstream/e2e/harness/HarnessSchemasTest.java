package io.tfstream.e2e.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.spec.schema.FeatureSpecFromSchema;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import org.junit.jupiter.api.Test;

/** The harness's schemas derive exactly the profiles' specs: the validation run parses alike. */
class HarnessSchemasTest {
    @Test
    void theWideSchemaDerivesTheWideSpec() throws Exception {
        assertEquals(
                WideProfileCorpus.spec(),
                FeatureSpecFromSchema.derive(SchemaLoader.parseText(HarnessSchemas.wide()))
                        .exampleSpecs());
    }

    @Test
    void theSeedSchemaDerivesTheSeedSpec() throws Exception {
        assertEquals(
                Seed001Corpus.spec(),
                FeatureSpecFromSchema.derive(SchemaLoader.parseText(HarnessSchemas.seed001()))
                        .exampleSpecs());
    }
}
