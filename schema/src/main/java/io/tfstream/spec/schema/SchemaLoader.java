package io.tfstream.spec.schema;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.TextFormat;
import io.tfstream.spec.MalformedSpecFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.tensorflow.metadata.v0.Schema;

/**
 * Reads a TFMD {@code Schema} as TFX / TFDV write it: protobuf text format ({@code schema.pbtxt},
 * what {@code tfdv.write_schema_text} produces) or binary. Files named {@code .pbtxt}, {@code
 * .textproto}, {@code .prototxt} or {@code .txt} are read as text, {@code .pb} / {@code .binpb} as
 * binary; any other name is read as text when it is UTF-8 text in that format, else as binary.
 * Unknown fields are rejected in text (as Python's {@code text_format.Parse} does).
 */
public final class SchemaLoader {
    private SchemaLoader() {}

    /** Reads and parses {@code file}. */
    public static Schema load(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        return parse(bytes, name.toLowerCase(Locale.ROOT), file.toString());
    }

    /**
     * Parses schema bytes, detecting text or binary format; {@code source} names them in errors.
     */
    public static Schema parse(byte[] bytes, String source) throws MalformedSpecFileException {
        return parse(bytes, "", source);
    }

    private static Schema parse(byte[] bytes, String lowerName, String source)
            throws MalformedSpecFileException {
        if (lowerName.endsWith(".pb") || lowerName.endsWith(".binpb")) {
            return parseBinary(bytes, source);
        }
        boolean forceText =
                lowerName.endsWith(".pbtxt")
                        || lowerName.endsWith(".textproto")
                        || lowerName.endsWith(".prototxt")
                        || lowerName.endsWith(".txt");
        String text = strictUtf8(bytes);
        if (text == null) {
            if (forceText) {
                throw new MalformedSpecFileException(
                        source + ": not a text-format Schema: the file is not valid UTF-8", null);
            }
            return parseBinary(bytes, source);
        }
        try {
            return parseText(text);
        } catch (TextFormat.ParseException e) {
            if (!forceText) {
                try {
                    return Schema.parseFrom(bytes);
                } catch (InvalidProtocolBufferException binaryError) {
                    e.addSuppressed(binaryError);
                }
            }
            throw new MalformedSpecFileException(
                    source + ": not a text-format Schema: " + e.getMessage(), e);
        }
    }

    /** Parses protobuf text format. */
    public static Schema parseText(CharSequence text) throws TextFormat.ParseException {
        Schema.Builder b = Schema.newBuilder();
        TextFormat.getParser().merge(text, b);
        return b.build();
    }

    private static Schema parseBinary(byte[] bytes, String source)
            throws MalformedSpecFileException {
        try {
            return Schema.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new MalformedSpecFileException(
                    source + ": not a binary Schema proto: " + e.getMessage(), e);
        }
    }

    private static String strictUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
