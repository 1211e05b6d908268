package io.tfstream.tensor.json;

/** How {@link BatchJsonWriter} writes string (bytes) values. */
public enum StringEncoding {
    /** Standard padded base64 of the raw bytes. */
    BASE64,
    /** A JSON string when the bytes are strict UTF-8, else {@code {"base64":"..."}}. */
    UTF8;

    /** Parses the command-line form: {@code base64} or {@code utf8}. */
    public static StringEncoding fromName(String name) {
        switch (name) {
            case "base64":
                return BASE64;
            case "utf8":
                return UTF8;
            default:
                throw new IllegalArgumentException(
                        "string encoding must be base64 or utf8; got '" + name + "'");
        }
    }
}
