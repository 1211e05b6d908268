package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.BuiltSettings;
import io.tfstream.convert.InputFormat;
import io.tfstream.sample.SeedDataset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code source.format} options, checked at start with messages that name the setting. */
class ConvertConfigTest {
    @TempDir Path dir;

    private Map<String, Object> minimal() throws Exception {
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        m.put("source.topics", "in");
        m.put(
                "schema.path",
                Files.write(dir.resolve("schema.pbtxt"), SeedDataset.schemaPbtxt()).toString());
        m.put("dlq.topic", "dlq");
        return m;
    }

    private static String error(Map<String, Object> m) {
        return assertThrows(JobConfigException.class, () -> JobSchema.load(JobConfig.of(m)))
                .getMessage();
    }

    @Test
    void exampleIsTheDefaultAndConvertsNothing() throws Exception {
        JobConfig c = JobConfig.of(minimal());
        assertEquals(InputFormat.EXAMPLE, c.get(JobOptions.SOURCE_FORMAT));
        assertTrue(!c.convert().enabled());
    }

    @Test
    void avroNeedsItsWriterSchema() throws Exception {
        Map<String, Object> m = minimal();
        m.put("source.format", "avro");
        assertTrue(error(m).contains("source.avro.schema-path"), error(m));
        m.put("source.avro.schema-path", dir.resolve("missing.avsc").toString());
        assertTrue(error(m).startsWith("source.avro.schema-path: no such file"), error(m));
    }

    @Test
    void avroOptionsWithoutAvroAreRefused() throws Exception {
        Map<String, Object> m = minimal();
        m.put("source.format", "json");
        m.put("source.avro.schema-id", "3");
        assertEquals("source.avro.schema-id is set but source.format is json", error(m));
        Map<String, Object> e = minimal();
        e.put("source.convert.flatten", "true");
        assertTrue(error(e).contains("source.format is example"), error(e));
    }

    @Test
    void anAvroDecimalFeatureFieldIsRefusedAtStartNamingTheField() throws Exception {
        Path avsc =
                Files.writeString(
                        dir.resolve("w.avsc"),
                        "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"feature3\","
                                + "\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
                                + "\"precision\":4,\"scale\":2}}]}");
        Map<String, Object> m = minimal();
        m.put("source.format", "avro");
        m.put("source.avro.schema-path", avsc.toString());
        JobConfigException e =
                assertThrows(
                        JobSchemaRejectedException.class, () -> JobSchema.load(JobConfig.of(m)));
        assertTrue(e.getMessage().contains("'feature3' has logical type decimal"), e.getMessage());
    }

    @Test
    void jsonWithTheSeedSchemaStarts() throws Exception {
        Map<String, Object> m = minimal();
        m.put("source.format", "json");
        m.put("source.json.bytes", "base64");
        JobConfig c = JobConfig.of(m);
        JobSchema s = JobSchema.load(c);
        assertEquals(4, BuiltSettings.of(c.convert().convert(s)).features().size());
    }
}
