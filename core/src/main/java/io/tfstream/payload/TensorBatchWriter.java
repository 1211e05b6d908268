package io.tfstream.payload;

import com.google.protobuf.CodedOutputStream;
import io.tfstream.parse.ParsedRows;
import io.tfstream.tensor.Column;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.tensorflow.framework.DataType;

/**
 * The tensors and row count of a parsed batch written as {@code tfstream.v1.TensorBatch} wire bytes
 * straight from the column arrays with {@link CodedOutputStream}: no {@code TensorProto} objects,
 * no per-value objects, one exactly sized output array. The bytes are fields 1 ({@code tensors})
 * and 2 ({@code rows}) of the message; the metadata fields (fingerprint, sources, ids, window,
 * parts) serialized from a small {@code TensorBatch} and appended make the whole message
 * (concatenated protobuf messages merge). Parsing the result gives exactly {@link
 * TensorBatchCodec#encode}'s message.
 */
public final class TensorBatchWriter {
    private static final int TENSORS = 1;
    private static final int ROWS = 2;
    // TensorProto
    private static final int DTYPE = 1;
    private static final int SHAPE = 2;
    private static final int CONTENT = 4;
    private static final int STRING_VAL = 8;
    // TensorShapeProto and its Dim
    private static final int DIM = 2;
    private static final int DIM_SIZE = 1;
    // map entry
    private static final int KEY = 1;
    private static final int VALUE = 2;

    private TensorBatchWriter() {}

    /** One tensor to write, with its sizes computed once. */
    private static final class Entry {
        byte[] name;
        DataType dtype;
        long[] shape;
        Column column;
        long[] longs;
        int shapeSize;
        int contentSize;
        int protoSize;
        int entrySize;
    }

    /** Fields 1 and 2 of the batch's {@code TensorBatch}. */
    public static byte[] write(ParsedRows batch) {
        List<Entry> entries = new ArrayList<>();
        TensorBatchCodec.visit(
                batch,
                new TensorBatchCodec.Visitor() {
                    @Override
                    public void column(String name, Column c, long[] shape) {
                        Entry e = entry(name, shape);
                        e.column = c;
                        e.dtype =
                                switch (c.dtype()) {
                                    case INT64 -> DataType.DT_INT64;
                                    case FLOAT32 -> DataType.DT_FLOAT;
                                    default -> DataType.DT_STRING;
                                };
                        entries.add(e);
                    }

                    @Override
                    public void int64(String name, long[] values, long[] shape) {
                        Entry e = entry(name, shape);
                        e.longs = values;
                        e.dtype = DataType.DT_INT64;
                        entries.add(e);
                    }

                    @Override
                    public void int32(String name, long[] values, long[] shape) {
                        Entry e = entry(name, shape);
                        e.longs = values;
                        e.dtype = DataType.DT_INT32;
                        entries.add(e);
                    }
                });
        int total = 0;
        for (Entry e : entries) {
            size(e);
            total +=
                    CodedOutputStream.computeTagSize(TENSORS)
                            + CodedOutputStream.computeUInt32SizeNoTag(e.entrySize)
                            + e.entrySize;
        }
        long rows = batch.rows();
        if (rows != 0) {
            total += CodedOutputStream.computeInt64Size(ROWS, rows);
        }
        Out o = new Out(new byte[total]);
        for (Entry e : entries) {
            write(o, e);
        }
        if (rows != 0) {
            o.tag(ROWS, 0);
            o.varint(rows);
        }
        if (o.pos != total) {
            throw new IllegalStateException(
                    "wrote " + o.pos + " bytes of a message sized " + total + " bytes");
        }
        return o.buf;
    }

    /** An exactly sized array and a position: varints by hand, numbers in bulk. */
    private static final class Out {
        final byte[] buf;
        int pos;

        Out(byte[] buf) {
            this.buf = buf;
        }

        void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[pos++] = (byte) v;
        }

        void tag(int field, int wireType) {
            varint((field << 3) | wireType);
        }

        void bytes(byte[] b, int off, int len) {
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
        }

        java.nio.ByteBuffer le(int len) {
            java.nio.ByteBuffer b =
                    java.nio.ByteBuffer.wrap(buf, pos, len)
                            .slice()
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN);
            pos += len;
            return b;
        }
    }

    private static Entry entry(String name, long[] shape) {
        Entry e = new Entry();
        e.name = name.getBytes(StandardCharsets.UTF_8);
        e.shape = shape;
        return e;
    }

    private static void size(Entry e) {
        int shape = 0;
        for (long d : e.shape) {
            int dim = d == 0 ? 0 : CodedOutputStream.computeInt64Size(DIM_SIZE, d);
            shape +=
                    CodedOutputStream.computeTagSize(DIM)
                            + CodedOutputStream.computeUInt32SizeNoTag(dim)
                            + dim;
        }
        e.shapeSize = shape;
        int proto =
                CodedOutputStream.computeEnumSize(DTYPE, e.dtype.getNumber())
                        + CodedOutputStream.computeTagSize(SHAPE)
                        + CodedOutputStream.computeUInt32SizeNoTag(shape)
                        + shape;
        if (e.dtype == DataType.DT_STRING) {
            Column c = e.column;
            for (int i = 0; i < c.size(); i++) {
                int len = c.bytesLength(i);
                proto +=
                        CodedOutputStream.computeTagSize(STRING_VAL)
                                + CodedOutputStream.computeUInt32SizeNoTag(len)
                                + len;
            }
        } else {
            int n = e.longs != null ? e.longs.length : e.column.size();
            int width = e.dtype == DataType.DT_INT64 ? 8 : 4;
            e.contentSize = n * width;
            if (e.contentSize > 0) {
                proto +=
                        CodedOutputStream.computeTagSize(CONTENT)
                                + CodedOutputStream.computeUInt32SizeNoTag(e.contentSize)
                                + e.contentSize;
            }
        }
        e.protoSize = proto;
        e.entrySize =
                CodedOutputStream.computeTagSize(KEY)
                        + CodedOutputStream.computeUInt32SizeNoTag(e.name.length)
                        + e.name.length
                        + CodedOutputStream.computeTagSize(VALUE)
                        + CodedOutputStream.computeUInt32SizeNoTag(proto)
                        + proto;
    }

    private static void write(Out o, Entry e) {
        final int lengthDelimited = 2;
        o.tag(TENSORS, lengthDelimited);
        o.varint(e.entrySize);
        o.tag(KEY, lengthDelimited);
        o.varint(e.name.length);
        o.bytes(e.name, 0, e.name.length);
        o.tag(VALUE, lengthDelimited);
        o.varint(e.protoSize);
        o.tag(DTYPE, 0);
        o.varint(e.dtype.getNumber());
        o.tag(SHAPE, lengthDelimited);
        o.varint(e.shapeSize);
        for (long d : e.shape) {
            o.tag(DIM, lengthDelimited);
            if (d == 0) {
                o.varint(0);
            } else {
                o.varint(CodedOutputStream.computeInt64Size(DIM_SIZE, d));
                o.tag(DIM_SIZE, 0);
                o.varint(d);
            }
        }
        if (e.dtype == DataType.DT_STRING) {
            Column c = e.column;
            byte[] data = c.bytesData();
            for (int i = 0; i < c.size(); i++) {
                int len = c.bytesLength(i);
                o.tag(STRING_VAL, lengthDelimited);
                o.varint(len);
                o.bytes(data, c.bytesStart(i), len);
            }
            return;
        }
        if (e.contentSize == 0) {
            return;
        }
        o.tag(CONTENT, lengthDelimited);
        o.varint(e.contentSize);
        java.nio.ByteBuffer content = o.le(e.contentSize);
        if (e.longs != null) {
            if (e.dtype == DataType.DT_INT64) {
                content.asLongBuffer().put(e.longs);
            } else {
                for (long v : e.longs) {
                    content.putInt(Math.toIntExact(v));
                }
            }
        } else if (e.dtype == DataType.DT_INT64) {
            content.asLongBuffer().put(e.column.int64Array(), 0, e.column.size());
        } else {
            // Raw bits, as TensorFlow keeps them (NaN payloads included).
            content.asFloatBuffer().put(e.column.float32Array(), 0, e.column.size());
        }
    }
}
