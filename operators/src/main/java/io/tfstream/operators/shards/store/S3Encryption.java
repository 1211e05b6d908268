package io.tfstream.operators.shards.store;

import java.io.Serializable;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * The server-side encryption every shard object is written with: the {@code
 * x-amz-server-side-encryption} header ({@code AES256}: SSE-S3; {@code aws:kms}: SSE-KMS; {@code
 * aws:kms:dsse}: dual-layer SSE-KMS) and, with KMS, the key ({@code
 * x-amz-server-side-encryption-aws-kms-key-id}; null: the bucket's or the account's default key).
 * Sent on every object creation, so that a bucket policy denying unencrypted uploads admits them.
 *
 * @param algorithm the header's value, or null for none (the bucket's default encryption)
 * @param kmsKeyId a KMS key id or ARN, only with a KMS algorithm
 */
@Internal
public record S3Encryption(String algorithm, String kmsKeyId) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** No header: the bucket's default encryption applies. */
    public static final S3Encryption NONE = new S3Encryption(null, null);

    private static final Set<String> ALGORITHMS = Set.of("AES256", "aws:kms", "aws:kms:dsse");

    public S3Encryption {
        if (algorithm != null && !ALGORITHMS.contains(algorithm)) {
            throw new IllegalArgumentException(
                    "S3 server-side encryption '"
                            + algorithm
                            + "' is none of AES256, aws:kms, aws:kms:dsse");
        }
        if (kmsKeyId != null && (algorithm == null || !algorithm.startsWith("aws:kms"))) {
            throw new IllegalArgumentException(
                    "an S3 KMS key id needs server-side encryption aws:kms or aws:kms:dsse");
        }
    }

    /** {@code b} with these headers. */
    CreateMultipartUploadRequest.Builder apply(CreateMultipartUploadRequest.Builder b) {
        if (algorithm != null) {
            b.serverSideEncryption(algorithm);
        }
        if (kmsKeyId != null) {
            b.ssekmsKeyId(kmsKeyId);
        }
        return b;
    }

    /** {@code b} with these headers. */
    PutObjectRequest.Builder apply(PutObjectRequest.Builder b) {
        if (algorithm != null) {
            b.serverSideEncryption(algorithm);
        }
        if (kmsKeyId != null) {
            b.ssekmsKeyId(kmsKeyId);
        }
        return b;
    }
}
