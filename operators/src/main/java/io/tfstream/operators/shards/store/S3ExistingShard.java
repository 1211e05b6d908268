package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Whether a closed shard's key already holds its object (an earlier commit went through): the same
 * size and the multipart ETag of its parts, which S3 derives from the parts' MD5s, so an object
 * completed from other parts of the same upload (two jobs resumed from one savepoint) does not
 * pass. Only where the parts' ETags are no MD5s (SSE-KMS) does the upload's token in user metadata
 * decide. Any other object there is an error: a commit never overwrites other bytes.
 */
final class S3ExistingShard {
    private S3ExistingShard() {}

    /** Another object than the shard's is at its key. */
    static final class OtherObject extends IOException {
        private static final long serialVersionUID = 1L;

        OtherObject(String message) {
            super(message);
        }
    }

    /** The object at {@code at} if it is this shard's; fails if another object is there. */
    static Optional<HeadObjectResponse> find(S3Client s3, S3Location at, S3ShardState.Closed shard)
            throws IOException {
        HeadObjectResponse head;
        try {
            head = s3.headObject(b -> b.bucket(at.bucket()).key(at.key()));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            if (e.statusCode() == 403) {
                throw new IOException(
                        "HeadObject "
                                + shard.target()
                                + " was refused (403): without s3:ListBucket on the bucket, S3"
                                + " answers 403 instead of 404 for a missing key, and a commit"
                                + " cannot tell whether the shard is there; grant s3:ListBucket"
                                + " (docs/operations.md, the IAM policy)",
                        e);
            }
            throw new IOException("HeadObject " + shard.target() + ": " + e, e);
        } catch (SdkException e) {
            throw new IOException("HeadObject " + shard.target() + ": " + e, e);
        }
        String expectedEtag = MultipartEtag.of(shard.parts());
        boolean sameSize = head.contentLength() != null && head.contentLength() == shard.size();
        boolean sameToken = shard.token().equals(head.metadata().get(S3ShardStore.TOKEN_METADATA));
        boolean sameEtag = expectedEtag.equals(MultipartEtag.unquote(head.eTag()));
        boolean etagKnown = !expectedEtag.equals(MultipartEtag.UNKNOWN);
        if (sameSize && (etagKnown ? sameEtag : sameToken)) {
            return Optional.of(head);
        }
        throw new OtherObject(
                shard.target()
                        + " already exists with other bytes ("
                        + head.contentLength()
                        + " bytes, ETag "
                        + head.eTag()
                        + "; this shard: "
                        + shard.size()
                        + " bytes, ETag "
                        + expectedEtag
                        + "): not overwriting it; did another job restored from the same"
                        + " checkpoint or savepoint complete it?");
    }
}
