package io.tfstream.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.spec.json.SpecJsonReader;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.spec.schema.FeatureSpecFromSchema;
import io.tfstream.spec.schema.SchemaLoader;
import java.nio.charset.StandardCharsets;
import org.tensorflow.metadata.v0.Schema;

/**
 * Fuzzes the spec readers: any SPEC.json text or schema file gives a spec or a declared rejection
 * ({@link MalformedSpecFileException}, {@link SpecRejectedException}); an accepted spec survives a
 * write/read round trip and builds a parser or is refused with {@link IllegalArgumentException}.
 */
class SpecReaderFuzzTest {

    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void specJson(byte[] data) throws Exception {
        String json = new String(data, StandardCharsets.UTF_8);
        ParseSpec spec;
        try {
            spec = SpecJsonReader.read(json, "fuzz.json");
        } catch (MalformedSpecFileException | SpecRejectedException e) {
            return;
        }
        ParseSpec again = SpecJsonReader.read(SpecJsonWriter.write(spec), "round trip");
        if (!again.equals(spec)) {
            throw new AssertionError("round trip changed " + spec + " into " + again);
        }
        buildParser(spec);
    }

    @FuzzTest(maxDuration = FuzzRecords.MAX_DURATION)
    void schema(byte[] data) throws Exception {
        Schema schema;
        try {
            schema = SchemaLoader.parse(data, "fuzz.pbtxt");
        } catch (MalformedSpecFileException e) {
            return;
        }
        ParseSpec spec;
        try {
            spec = FeatureSpecFromSchema.derive(schema).spec();
        } catch (SpecRejectedException e) {
            return;
        }
        buildParser(spec);
    }

    private static void buildParser(ParseSpec spec) {
        try {
            if (spec instanceof FeatureSpecs f) {
                ExampleBatchParser.create(f, ParseLimits.defaults());
            } else {
                SequenceExampleBatchParser.create(
                        (SequenceFeatureSpecs) spec, ParseLimits.defaults());
            }
        } catch (IllegalArgumentException e) {
            // Specs TensorFlow's parse ops refuse (documented on create).
        }
    }
}
