package io.tfstream.operators.shards.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The ETag S3 gives an object: {@code md5(concat(md5 of each part)) + "-" + parts} after a
 * multipart upload (the parts' own ETags are their MD5s), the MD5 of the bytes after a plain put
 * (here: empty). S3Proxy computes the same. Lets a repeated commit recognise its object where user
 * metadata set at CreateMultipartUpload is not kept.
 */
final class MultipartEtag {
    /** What {@link #of} gives when a part's ETag is no MD5. */
    static final String UNKNOWN = "(unknown)";

    private MultipartEtag() {}

    static String of(List<S3ShardState.Part> parts) {
        MessageDigest md5 = md5();
        if (parts.isEmpty()) {
            return HexFormat.of().formatHex(md5.digest());
        }
        for (S3ShardState.Part part : parts) {
            String hex = unquote(part.etag());
            // An ETag that is no MD5 (SSE-KMS) cannot match; the token must then decide.
            if (hex.length() != 32 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return UNKNOWN;
            }
            md5.update(HexFormat.of().parseHex(hex));
        }
        return HexFormat.of().formatHex(md5.digest()) + "-" + parts.size();
    }

    static String unquote(String etag) {
        if (etag == null) {
            return "";
        }
        String s = etag.trim();
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
            s = s.substring(1, s.length() - 1);
        }
        return s.toLowerCase(java.util.Locale.ROOT);
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has MD5", e);
        }
    }
}
