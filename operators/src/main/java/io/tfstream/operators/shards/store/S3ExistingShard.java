package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Whether a closed shard's key already holds its object (an earlier commit went through): the same
 * size and either the upload's token in user metadata or the multipart ETag of its parts (S3Proxy
 * may not keep metadata set at CreateMultipartUpload). Any other object there is an error: a commit
 * never overwrites other bytes.
 */
final class S3ExistingShard {
    private S3ExistingShard() {}

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
            throw new IOException("HeadObject " + shard.target() + ": " + e, e);
        } catch (SdkException e) {
            throw new IOException("HeadObject " + shard.target() + ": " + e, e);
        }
        String expectedEtag = MultipartEtag.of(shard.parts());
        boolean sameSize = head.contentLength() != null && head.contentLength() == shard.size();
        boolean sameToken = shard.token().equals(head.metadata().get(S3ShardStore.TOKEN_METADATA));
        boolean sameEtag = expectedEtag.equals(MultipartEtag.unquote(head.eTag()));
        if (sameSize && (sameToken || sameEtag)) {
            return Optional.of(head);
        }
        throw new IOException(
                shard.target()
                        + " already exists with other bytes ("
                        + head.contentLength()
                        + " bytes, ETag "
                        + head.eTag()
                        + "; this shard: "
                        + shard.size()
                        + " bytes, ETag "
                        + expectedEtag
                        + "): not overwriting it; was an older checkpoint restored into the same"
                        + " job id?");
    }
}
