package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.convert.AvroSchemaRejectedException;
import io.tfstream.convert.ConversionException;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.spec.DType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.Example;

/**
 * {@link TfstreamConvertBuilder} and {@link TfstreamConvert#applyTo}: defaults, the required
 * settings, bad settings and unconvertible schemas named at build, the operator's uid.
 */
class TfstreamConvertTest {
    static final byte[] SCHEMA =
            ("feature { name: \"id\" type: INT }\n"
                            + "feature { name: \"name\" type: BYTES }\n"
                            + "feature { name: \"score\" type: FLOAT }\n")
                    .getBytes(StandardCharsets.UTF_8);

    static final String AVSC =
            "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"long\"},"
                    + "{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"score\",\"type\":\"double\"}]}";

    @TempDir Path dir;

    private static TfstreamConvertBuilder json() {
        return TfstreamConvert.builder()
                .setSchema(SCHEMA, "schema.pbtxt")
                .setFormat(InputFormat.JSON);
    }

    private static TfstreamConvertBuilder avro() {
        return TfstreamConvert.builder()
                .setSchema(SCHEMA, "schema.pbtxt")
                .setFormat(InputFormat.AVRO)
                .setAvroSchema(AVSC);
    }

    private static String failure(TfstreamConvertBuilder b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void defaultsAreThoseOfTfstreamRun() throws Exception {
        TfstreamConvert c = json().build();
        ConvertSettings s = c.settings();
        assertEquals("convert", c.uid());
        assertEquals(InputFormat.JSON, s.format());
        assertFalse(s.options().jsonBase64());
        assertFalse(s.options().flatten());
        assertNull(s.options().avroSchemaId());
        assertFalse(s.guard().enabled());
        assertNull(s.avroSchemaJson());
        assertEquals(
                Map.of("id", DType.INT64, "name", DType.STRING, "score", DType.FLOAT32),
                s.features().asMap());
        // The settings convert: a JSON object becomes the schema's Example.
        byte[] in = "{\"id\": 7, \"name\": \"a\", \"score\": 0.5}".getBytes(StandardCharsets.UTF_8);
        Example e = Example.parseFrom(s.converter().convert(in, 0, in.length));
        assertEquals(7, e.getFeatures().getFeatureMap().get("id").getInt64List().getValue(0));
    }

    @Test
    void settingsReachTheOperator() throws Exception {
        DeadLetterGuard guard =
                DeadLetterGuard.builder()
                        .setMaxFraction(0.5)
                        .setWindow(Duration.ofMinutes(1))
                        .setMinRecords(10)
                        .build();
        TfstreamConvert c =
                json().setJsonBytesBase64(true)
                        .setFlatten(true)
                        .setDeadLetterGuard(guard)
                        .setUid("my-convert")
                        .build();
        assertTrue(c.settings().options().jsonBase64());
        assertTrue(c.settings().options().flatten());
        assertEquals(guard, c.settings().guard());
        assertEquals("my-convert", c.uid());
        byte[] in = "{\"name\": \"YWI=\"}".getBytes(StandardCharsets.UTF_8); // base64 of "ab"
        Example e = Example.parseFrom(c.settings().converter().convert(in, 0, in.length));
        assertEquals(
                "ab",
                e.getFeatures()
                        .getFeatureMap()
                        .get("name")
                        .getBytesList()
                        .getValue(0)
                        .toStringUtf8());
    }

    @Test
    void theAvroWriterSchemaComesAsTextParsedOrFile() throws Exception {
        Path file = Files.writeString(dir.resolve("w.avsc"), AVSC);
        Schema parsed = new Schema.Parser().parse(AVSC);
        for (TfstreamConvertBuilder b :
                java.util.List.of(
                        avro(),
                        avro().setAvroSchema(parsed),
                        avro().setAvroSchemaFile(file).setAvroSchemaId(5))) {
            TfstreamConvert c = b.build();
            assertEquals(parsed, new Schema.Parser().parse(c.settings().avroSchemaJson()));
        }
        TfstreamConvert framed = avro().setAvroSchemaId(5).build();
        assertEquals(5, framed.settings().options().avroSchemaId());
        // A record without the framing of schema id 5 does not convert.
        byte[] plain = new byte[] {14, 2, 'a', 0, 0, 0, 0, 0, 0, 0, 0};
        assertThrows(
                ConversionException.class,
                () -> framed.settings().converter().convert(plain, 0, plain.length));
    }

    @Test
    void theSchemaAndTheFormatAreRequired() {
        assertTrue(failure(TfstreamConvert.builder()).startsWith("schema is required"));
        assertTrue(
                failure(TfstreamConvert.builder().setSchema(SCHEMA, "schema.pbtxt"))
                        .startsWith("format is required"));
        assertTrue(failure(json().setFormat(InputFormat.EXAMPLE)).startsWith("format"));
        assertTrue(
                failure(avro().setAvroSchema((String) null))
                        .startsWith("avroSchema is required with format AVRO"));
    }

    @Test
    void badSettingsAreNamed() {
        assertEquals("avroSchema is set but format is JSON", failure(json().setAvroSchema(AVSC)));
        assertEquals("avroSchemaId is set but format is JSON", failure(json().setAvroSchemaId(1)));
        assertTrue(failure(avro().setAvroSchemaId(-1)).startsWith("avroSchemaId"));
        assertTrue(failure(json().setDeadLetterGuard(null)).startsWith("deadLetterGuard"));
        assertTrue(failure(json().setUid("")).startsWith("uid"));
        assertTrue(failure(avro().setAvroSchema("{not avro")).startsWith("avroSchema"));
        String bad = failure(json().setSchema(new byte[] {1, 2}, "schema.pb"));
        assertTrue(bad.startsWith("schema schema.pb cannot convert"), bad);
    }

    @Test
    void anAvroDecimalFieldIsRefusedAtBuildNamingTheField() {
        String avsc =
                "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"score\","
                        + "\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
                        + "\"precision\":4,\"scale\":2}}]}";
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, avro().setAvroSchema(avsc)::build);
        assertTrue(
                e.getMessage().startsWith("avroSchema against schema schema.pbtxt"),
                e.getMessage());
        assertTrue(e.getMessage().contains("'score' has logical type decimal"), e.getMessage());
        assertInstanceOf(AvroSchemaRejectedException.class, e.getCause());
    }

    @Test
    void theOperatorRunsUnderItsUid() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        ConvertResult r =
                json().setName("convert-json")
                        .build()
                        .applyTo(
                                env.fromData(
                                        SourceRecordSerializer.typeInfo(),
                                        SourceRecord.of(new byte[0], "in", 0, 0, 0)));
        r.records().sinkTo(new DiscardingSink<>());
        r.deadLetters().sinkTo(new DiscardingSink<>());
        Set<String> uids =
                env.getStreamGraph().getStreamNodes().stream()
                        .map(StreamNode::getTransformationUID)
                        .collect(Collectors.toSet());
        assertTrue(uids.contains("convert"), uids.toString());
        assertEquals("convert-json", r.records().getName());
    }
}
