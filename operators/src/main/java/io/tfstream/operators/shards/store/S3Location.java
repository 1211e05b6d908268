package io.tfstream.operators.shards.store;

import io.tfstream.text.Quoted;

/** Bucket and key of an {@code s3://} or {@code s3a://} URI. */
record S3Location(String bucket, String key) {

    static S3Location of(String uri) {
        int schemeEnd = uri.indexOf("://");
        String scheme = schemeEnd < 0 ? "" : uri.substring(0, schemeEnd);
        if (!scheme.equals("s3") && !scheme.equals("s3a")) {
            throw new IllegalArgumentException(
                    "not an s3:// or s3a:// location: '" + Quoted.cut(String.valueOf(uri)) + "'");
        }
        String rest = uri.substring(schemeEnd + 3);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String key = slash < 0 ? "" : rest.substring(slash + 1);
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException(
                    "no bucket in '" + Quoted.cut(String.valueOf(uri)) + "'");
        }
        return new S3Location(bucket, key);
    }

    /** The key as a listing prefix: empty or ending in '/'. */
    String directoryPrefix() {
        return key.isEmpty() || key.endsWith("/") ? key : key + '/';
    }

    /** The last segment of the key. */
    String fileName() {
        return key.substring(key.lastIndexOf('/') + 1);
    }
}
