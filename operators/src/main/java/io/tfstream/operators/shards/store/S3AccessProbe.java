package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Checks before a job reads its first record that its credentials can do what the S3 shard store
 * does, so that a missing permission is named at start instead of failing every commit: create and
 * abort a multipart upload under the shard path ({@code s3:PutObject}, {@code
 * s3:AbortMultipartUpload}), list uploads there ({@code s3:ListBucketMultipartUploads}) and HEAD a
 * missing key, which must answer 404 ({@code s3:ListBucket}: without it S3 answers 403 and a commit
 * cannot tell whether its shard is there). Completes nothing, so it needs no {@code
 * s3:DeleteObject} and leaves nothing behind.
 */
@Internal
public final class S3AccessProbe {
    private S3AccessProbe() {}

    /** Runs the probe; throws naming the first permission missing. */
    public static void check(S3ShardStoreFactory factory) throws IOException {
        S3Location base = S3Location.of(factory.basePath());
        String key = base.directoryPrefix() + ".tfstream-probe-" + UUID.randomUUID();
        try (S3Client s3 = factory.newClient()) {
            String uploadId =
                    probe(
                                    factory.encryption().kmsKeyId() != null
                                                    || String.valueOf(
                                                                    factory.encryption()
                                                                            .algorithm())
                                                            .startsWith("aws:kms")
                                            ? "s3:PutObject (CreateMultipartUpload) and"
                                                    + " kms:GenerateDataKey on the KMS key"
                                            : "s3:PutObject (CreateMultipartUpload)",
                                    base,
                                    () ->
                                            s3.createMultipartUpload(
                                                    b ->
                                                            factory.encryption()
                                                                    .apply(b)
                                                                    .bucket(base.bucket())
                                                                    .key(key)))
                            .uploadId();
            probe(
                    "s3:AbortMultipartUpload",
                    base,
                    () ->
                            s3.abortMultipartUpload(
                                    b -> b.bucket(base.bucket()).key(key).uploadId(uploadId)));
            probe(
                    "s3:ListBucketMultipartUploads",
                    base,
                    () ->
                            s3.listMultipartUploads(
                                    b -> b.bucket(base.bucket()).prefix(base.directoryPrefix())));
            try {
                s3.headObject(b -> b.bucket(base.bucket()).key(key));
                throw new IOException(
                        "S3 probe of "
                                + factory.basePath()
                                + ": HEAD of a key never written answered 200");
            } catch (S3Exception e) {
                if (e.statusCode() != 404) {
                    throw refused(
                            "s3:ListBucket (HEAD of a missing key answered "
                                    + e.statusCode()
                                    + ", not 404)",
                            base,
                            e);
                }
            }
        } catch (SdkException e) {
            throw new IOException("S3 probe of " + factory.basePath() + ": " + e.getMessage(), e);
        }
    }

    private static <T> T probe(String permission, S3Location base, java.util.function.Supplier<T> r)
            throws IOException {
        try {
            return r.get();
        } catch (S3Exception e) {
            throw refused(permission, base, e);
        }
    }

    private static IOException refused(String permission, S3Location base, S3Exception e) {
        String code = e.awsErrorDetails() == null ? "" : " " + e.awsErrorDetails().errorCode();
        if (e.statusCode() == 501) {
            // Not a permission: the store lacks a feature the settings ask for (e.g. SSE).
            String what = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorMessage();
            return new IOException(
                    "the S3 store at s3://"
                            + base.bucket()
                            + " does not implement what writing shards asks for (501"
                            + code
                            + ": "
                            + what
                            + "); check s3.server-side-encryption",
                    e);
        }
        return new IOException(
                "the S3 credentials cannot write shards to s3://"
                        + base.bucket()
                        + "/"
                        + base.key()
                        + ": "
                        + permission
                        + " was refused ("
                        + e.statusCode()
                        + code
                        + "); grant the permissions listed in docs/operations.md (the IAM policy)",
                e);
    }
}
