package io.tfstream.spec.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PyReprTest {
    @Test
    void doublesAsPythonReprPrintsThem() {
        assertEquals("0.0", PyRepr.ofDouble(0.0));
        assertEquals("-0.0", PyRepr.ofDouble(-0.0));
        assertEquals("1.0", PyRepr.ofDouble(1.0));
        assertEquals("0.5", PyRepr.ofDouble(0.5));
        assertEquals("-1.5", PyRepr.ofDouble(-1.5));
        assertEquals("0.0001", PyRepr.ofDouble(1e-4));
        assertEquals("1e-05", PyRepr.ofDouble(1e-5));
        assertEquals("0.99999", PyRepr.ofDouble(0.99999));
        assertEquals("123456789.0", PyRepr.ofDouble(123456789.0));
        assertEquals("1e+16", PyRepr.ofDouble(1e16));
        assertEquals("1234567890123456.0", PyRepr.ofDouble(1234567890123456.0));
        assertEquals("1.7976931348623157e+308", PyRepr.ofDouble(Double.MAX_VALUE));
        assertEquals("5e-324", PyRepr.ofDouble(Double.MIN_VALUE));
        assertEquals("0.1", PyRepr.ofDouble(0.1));
        assertEquals("nan", PyRepr.ofDouble(Double.NaN));
        assertEquals("-inf", PyRepr.ofDouble(Double.NEGATIVE_INFINITY));
    }

    @Test
    void bytesAsPythonReprPrintsThem() {
        assertEquals("b'default'", PyRepr.ofBytes(bytes("default")));
        assertEquals("b''", PyRepr.ofBytes(new byte[0]));
        assertEquals("b'\\xd0'", PyRepr.ofBytes(new byte[] {(byte) 0xd0}));
        assertEquals("b\"it's\"", PyRepr.ofBytes(bytes("it's")));
        assertEquals("b'both\\'\"'", PyRepr.ofBytes(bytes("both'\"")));
        assertEquals("b'a\\tb\\nc\\\\'", PyRepr.ofBytes(bytes("a\tb\nc\\")));
        assertEquals("b'\\x00\\x7f'", PyRepr.ofBytes(new byte[] {0, 0x7f}));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
