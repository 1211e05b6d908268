package io.tfstream.spec.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Writes SPEC.json / SEQSPEC.json (see docs/cli.md#specjson) with every field spelled out, so that
 * {@link SpecJsonReader} gives back an equal spec: int64 as exact JSON integers, float32 as {@code
 * Float.toString} (NaN and infinities as strings), strings as JSON strings when they are strict
 * UTF-8 else {@code {"base64": ...}}, defaults nested to the feature's shape.
 */
public final class SpecJsonWriter {
    private static final JsonFactory JSON = new JsonFactory();

    private SpecJsonWriter() {}

    /** One line of JSON: a SPEC.json object, or SEQSPEC.json for {@link SequenceFeatureSpecs}. */
    public static String write(ParseSpec spec) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            if (spec instanceof SequenceFeatureSpecs s) {
                g.writeStartObject();
                g.writeFieldName("context");
                writeDict(g, s.context());
                g.writeFieldName("feature_lists");
                writeDict(g, s.featureLists());
                g.writeEndObject();
            } else {
                writeDict(g, (FeatureSpecs) spec);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * One feature's entry as SPEC.json writes it, e.g. {@code {"type":"var_len","dtype":"int64"}}.
     */
    public static String writeFeature(FeatureSpec spec) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            writeSpec(g, spec);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * The {@code default} of a FixedLen (nested to its shape) or FixedLenSequence feature as
     * SPEC.json writes it, or {@code null} (the JSON literal) when it has none.
     */
    public static String writeDefault(FeatureSpec spec) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            if (spec instanceof FixedLenFeature f && f.defaultValue().isPresent()) {
                writeNested(g, f.defaultValue().get(), f.shape(), 0, 0, f.numElements());
            } else if (spec instanceof FixedLenSequenceFeature f && f.defaultValue().isPresent()) {
                writeValue(g, f.defaultValue().get(), 0);
            } else {
                g.writeNull();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeDict(JsonGenerator g, FeatureSpecs specs) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            g.writeFieldName(e.getKey());
            writeSpec(g, e.getValue());
        }
        g.writeEndObject();
    }

    private static void writeSpec(JsonGenerator g, FeatureSpec spec) throws IOException {
        g.writeStartObject();
        if (spec instanceof FixedLenFeature f) {
            g.writeStringField("type", "fixed_len");
            g.writeStringField("dtype", f.dtype().jsonName());
            writeLongs(g, "shape", f.shape());
            if (f.defaultValue().isPresent()) {
                g.writeFieldName("default");
                writeNested(g, f.defaultValue().get(), f.shape(), 0, 0, f.numElements());
            }
        } else if (spec instanceof FixedLenSequenceFeature f) {
            g.writeStringField("type", "fixed_len_seq");
            g.writeStringField("dtype", f.dtype().jsonName());
            writeLongs(g, "shape", f.shape());
            g.writeBooleanField("allow_missing", f.allowMissing());
            if (f.defaultValue().isPresent()) {
                g.writeFieldName("default");
                writeValue(g, f.defaultValue().get(), 0);
            }
        } else if (spec instanceof VarLenFeature v) {
            g.writeStringField("type", "var_len");
            g.writeStringField("dtype", v.dtype().jsonName());
        } else if (spec instanceof SparseFeature s) {
            g.writeStringField("type", "sparse");
            g.writeArrayFieldStart("index_keys");
            for (String k : s.indexKeys()) {
                g.writeString(k);
            }
            g.writeEndArray();
            g.writeStringField("value_key", s.valueKey());
            g.writeStringField("dtype", s.dtype().jsonName());
            writeLongs(g, "size", s.size());
            g.writeBooleanField("already_sorted", s.alreadySorted());
        } else {
            RaggedFeature r = (RaggedFeature) spec;
            g.writeStringField("type", "ragged");
            g.writeStringField("dtype", r.dtype().jsonName());
            g.writeStringField("value_key", r.valueKey());
            g.writeArrayFieldStart("partitions");
            for (Partition p : r.partitions()) {
                writePartition(g, p);
            }
            g.writeEndArray();
            g.writeStringField("row_splits_dtype", r.rowSplitsDtype().jsonName());
        }
        g.writeEndObject();
    }

    private static void writePartition(JsonGenerator g, Partition p) throws IOException {
        g.writeStartObject();
        if (p instanceof Partition.UniformRowLength u) {
            g.writeNumberField("uniform_row_length", u.length());
        } else {
            g.writeStringField(PartitionNames.of(p), p.key());
        }
        g.writeEndObject();
    }

    private static void writeLongs(JsonGenerator g, String field, List<Long> values)
            throws IOException {
        g.writeArrayFieldStart(field);
        for (long v : values) {
            g.writeNumber(v);
        }
        g.writeEndArray();
    }

    /** Writes values [offset, offset + count) of {@code d} nested as {@code shape[dim:]}. */
    private static void writeNested(
            JsonGenerator g, DefaultValue d, List<Long> shape, int dim, long offset, long count)
            throws IOException {
        if (dim == shape.size()) {
            writeValue(g, d, (int) offset);
            return;
        }
        long rows = shape.get(dim);
        long stride = rows == 0 ? 0 : count / rows;
        g.writeStartArray();
        for (long r = 0; r < rows; r++) {
            writeNested(g, d, shape, dim + 1, offset + r * stride, stride);
        }
        g.writeEndArray();
    }

    private static void writeValue(JsonGenerator g, DefaultValue d, int i) throws IOException {
        switch (d.dtype()) {
            case INT64:
                g.writeNumber(d.int64(i));
                break;
            case FLOAT32:
                float f = d.float32(i);
                if (Float.isNaN(f)) {
                    g.writeString("NaN");
                } else if (Float.isInfinite(f)) {
                    g.writeString(f > 0 ? "Infinity" : "-Infinity");
                } else {
                    g.writeNumber(Float.toString(f));
                }
                break;
            default:
                writeBytes(g, d.bytesAt(i));
        }
    }

    private static void writeBytes(JsonGenerator g, byte[] bytes) throws IOException {
        try {
            String s =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes))
                            .toString();
            g.writeString(s);
        } catch (CharacterCodingException e) {
            g.writeStartObject();
            g.writeStringField("base64", Base64.getEncoder().encodeToString(bytes));
            g.writeEndObject();
        }
    }
}
