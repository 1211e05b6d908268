package io.tfstream.tensor.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import io.tfstream.spec.KeyOrder;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Writes parsed batches as the JSON lines of the {@code tfstream parse} output contract, one line
 * per batch, streaming through a Jackson {@link JsonGenerator}:
 *
 * <pre>
 * {"batch":0,"features":{NAME:VALUE,...}}         features sorted by name (code point order)
 * {"batch":3,"error":"...","code":"INVALID_ARGUMENT"}
 * </pre>
 *
 * VALUE is {@code {"kind":"dense","dtype":..,"shape":[..],"values":[..]}}, {@code
 * {"kind":"sparse","dtype":..,"indices":[[..],..],"values":[..],"dense_shape":[..]}} or {@code
 * {"kind":"ragged","dtype":..,"values":[..],"values_shape":[..],"row_splits":[[..],..],
 * "row_splits_dtype":..}}. int64 values are exact JSON integers; float32 values use {@link
 * Float#toString(float)} (which round-trips) and the strings {@code "NaN"}, {@code "Infinity"},
 * {@code "-Infinity"}; strings follow the {@link StringEncoding}. Closing the writer flushes but
 * does not close the underlying {@link Writer}.
 */
public final class BatchJsonWriter implements Closeable, Flushable {
    private static final JsonFactory FACTORY =
            JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    private final JsonGenerator gen;
    private final StringEncoding strings;
    private final CharsetDecoder utf8 =
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);

    public BatchJsonWriter(Writer out, StringEncoding strings) throws IOException {
        this(FACTORY.createGenerator(out), strings);
    }

    /** Writes UTF-8 to {@code out}. */
    public BatchJsonWriter(OutputStream out, StringEncoding strings) throws IOException {
        this(FACTORY.createGenerator(out, JsonEncoding.UTF8), strings);
    }

    private BatchJsonWriter(JsonGenerator gen, StringEncoding strings) {
        this.gen = gen;
        this.gen.setPrettyPrinter(new MinimalPrettyPrinter(""));
        this.strings = java.util.Objects.requireNonNull(strings, "strings");
    }

    /** Writes {@code {"batch":N,"features":{...}}} and a newline. */
    public void writeBatch(long batch, Map<String, ? extends Tensor> features) throws IOException {
        gen.writeStartObject();
        gen.writeNumberField("batch", batch);
        writeTensorMap("features", features);
        gen.writeEndObject();
        endLine();
    }

    /**
     * Writes {@code
     * {"batch":N,"context":{..},"feature_lists":{..},"feature_list_lengths":{NAME:[..]}}} and a
     * newline: the {@code parse_sequence_example} form, lengths as plain int64 arrays.
     */
    public void writeSequenceBatch(
            long batch,
            Map<String, ? extends Tensor> context,
            Map<String, ? extends Tensor> featureLists,
            Map<String, DenseTensor> featureListLengths)
            throws IOException {
        gen.writeStartObject();
        gen.writeNumberField("batch", batch);
        writeTensorMap("context", context);
        writeTensorMap("feature_lists", featureLists);
        gen.writeObjectFieldStart("feature_list_lengths");
        for (String name : sortedNames(featureListLengths)) {
            Column lengths = featureListLengths.get(name).values();
            gen.writeFieldName(name);
            gen.writeArray(lengths.int64Array(), 0, lengths.size());
        }
        gen.writeEndObject();
        gen.writeEndObject();
        endLine();
    }

    private void writeTensorMap(String field, Map<String, ? extends Tensor> tensors)
            throws IOException {
        gen.writeObjectFieldStart(field);
        for (String name : sortedNames(tensors)) {
            gen.writeFieldName(name);
            writeValue(tensors.get(name));
        }
        gen.writeEndObject();
    }

    private static List<String> sortedNames(Map<String, ?> m) {
        List<String> names = new ArrayList<>(m.keySet());
        names.sort(KeyOrder.CODE_POINT);
        return names;
    }

    /** Writes {@code {"batch":N,"error":MESSAGE,"code":CODE}} and a newline. */
    public void writeError(long batch, String message, String code) throws IOException {
        gen.writeStartObject();
        gen.writeNumberField("batch", batch);
        gen.writeStringField("error", message);
        gen.writeStringField("code", code);
        gen.writeEndObject();
        endLine();
    }

    /** Writes one VALUE object (no newline), e.g. inside a caller's own object. */
    public void writeValue(Tensor t) throws IOException {
        gen.writeStartObject();
        if (t instanceof DenseTensor d) {
            gen.writeStringField("kind", "dense");
            gen.writeStringField("dtype", d.dtype().jsonName());
            writeLongs("shape", d.shape());
            writeValues(d.values());
        } else if (t instanceof SparseTensor s) {
            gen.writeStringField("kind", "sparse");
            gen.writeStringField("dtype", s.dtype().jsonName());
            gen.writeArrayFieldStart("indices");
            for (int i = 0; i < s.numValues(); i++) {
                gen.writeStartArray();
                for (int d = 0; d < s.rank(); d++) {
                    gen.writeNumber(s.index(i, d));
                }
                gen.writeEndArray();
            }
            gen.writeEndArray();
            writeValues(s.values());
            writeLongs("dense_shape", s.denseShape());
        } else {
            RaggedTensor r = (RaggedTensor) t;
            gen.writeStringField("kind", "ragged");
            gen.writeStringField("dtype", r.dtype().jsonName());
            writeValues(r.values());
            writeLongs("values_shape", r.valuesShape());
            gen.writeArrayFieldStart("row_splits");
            for (long[] splits : r.rowSplits()) {
                gen.writeArray(splits, 0, splits.length);
            }
            gen.writeEndArray();
            gen.writeStringField("row_splits_dtype", r.rowSplitsDtype().jsonName());
        }
        gen.writeEndObject();
    }

    private void writeLongs(String field, long[] values) throws IOException {
        gen.writeFieldName(field);
        gen.writeArray(values, 0, values.length);
    }

    private void writeValues(Column c) throws IOException {
        gen.writeArrayFieldStart("values");
        int n = c.size();
        switch (c.dtype()) {
            case INT64:
                for (int i = 0; i < n; i++) {
                    gen.writeNumber(c.int64(i));
                }
                break;
            case FLOAT32:
                for (int i = 0; i < n; i++) {
                    writeFloat(c.float32(i));
                }
                break;
            default:
                for (int i = 0; i < n; i++) {
                    writeBytes(c.bytesData(), c.bytesStart(i), c.bytesLength(i));
                }
        }
        gen.writeEndArray();
    }

    private void writeFloat(float f) throws IOException {
        if (Float.isNaN(f)) {
            gen.writeString("NaN");
        } else if (Float.isInfinite(f)) {
            gen.writeString(f > 0 ? "Infinity" : "-Infinity");
        } else {
            gen.writeNumber(Float.toString(f));
        }
    }

    private void writeBytes(byte[] data, int off, int len) throws IOException {
        if (strings == StringEncoding.UTF8) {
            try {
                gen.writeString(utf8.decode(ByteBuffer.wrap(data, off, len)).toString());
                return;
            } catch (CharacterCodingException notUtf8) {
                gen.writeStartObject();
                gen.writeFieldName("base64");
                writeBase64(data, off, len);
                gen.writeEndObject();
                return;
            }
        }
        writeBase64(data, off, len);
    }

    private void writeBase64(byte[] data, int off, int len) throws IOException {
        ByteBuffer b64 = Base64.getEncoder().encode(ByteBuffer.wrap(data, off, len));
        gen.writeString(new String(b64.array(), 0, b64.limit(), StandardCharsets.US_ASCII));
    }

    private void endLine() throws IOException {
        gen.writeRaw('\n');
    }

    @Override
    public void flush() throws IOException {
        gen.flush();
    }

    @Override
    public void close() throws IOException {
        gen.close();
    }
}
