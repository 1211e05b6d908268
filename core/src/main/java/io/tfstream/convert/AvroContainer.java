package io.tfstream.convert;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Reads an Avro container file ({@code .avro}) record by record as Avro binary of the file's own
 * writer schema: what a producer of that schema would put in one Kafka message. A damaged file is
 * an {@link IOException}.
 */
public final class AvroContainer implements Closeable {
    private final DataFileStream<Object> stream;
    private final GenericDatumWriter<Object> writer;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private BinaryEncoder encoder;
    private Object reuse;

    public AvroContainer(Path file) throws IOException {
        this.stream = new DataFileStream<>(Files.newInputStream(file), new GenericDatumReader<>());
        this.writer = new GenericDatumWriter<>(stream.getSchema());
    }

    /** The file's writer schema. */
    public Schema schema() {
        return stream.getSchema();
    }

    /** The next record as Avro binary, or null at the end of the file. */
    public byte[] next() throws IOException {
        try {
            if (!stream.hasNext()) {
                return null;
            }
            reuse = stream.next(reuse);
        } catch (org.apache.avro.AvroRuntimeException e) {
            throw new IOException("damaged Avro container file: " + e.getMessage(), e);
        }
        out.reset();
        encoder = EncoderFactory.get().binaryEncoder(out, encoder);
        writer.write(reuse, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    @Override
    public void close() throws IOException {
        stream.close();
    }
}
