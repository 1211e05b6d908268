package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@link ShardStore} for {@code s3://} and {@code s3a://}: one multipart upload per shard under its
 * final key, parts uploaded as they fill, the tail below S3's minimum part kept in the checkpoint
 * (no temporary objects, unlike Flink's S3 writer, FLINK-13941), the upload completed at commit.
 * Nothing is visible before the commit. Keys carry a {@link ShardName}, so a restored subtask can
 * tell from {@code ListMultipartUploads} which uploads a failed attempt opened after the restored
 * checkpoint and abort exactly those.
 */
public final class S3ShardStore implements ShardStore {
    private static final Logger LOG = LoggerFactory.getLogger(S3ShardStore.class);

    /** User metadata set on each upload: lets a repeated commit recognise its object. */
    static final String TOKEN_METADATA = "tfstream-token";

    private final S3Client s3;
    private final S3Location base;
    private final String namePrefix;
    private final int partSize;

    /** Uploads this store created that no persist or close has handed out yet. */
    private final Set<String> unpersisted = new LinkedHashSet<>();

    private final Map<String, String> keyOfUpload = new java.util.HashMap<>();

    S3ShardStore(S3Client s3, S3Location base, String namePrefix, int partSize) {
        this.s3 = s3;
        this.base = base;
        this.namePrefix = namePrefix;
        this.partSize = partSize;
    }

    @Override
    public ShardOutput open(String target) {
        S3Location.of(target);
        return new S3ShardOutput(
                this,
                new S3ShardState.Persisted(
                        target, UUID.randomUUID().toString(), null, List.of(), 0, new byte[0]),
                partSize);
    }

    @Override
    public ShardOutput resume(byte[] persisted) throws IOException {
        S3ShardState state = S3ShardStateSerializer.fromBytes(persisted);
        if (!(state instanceof S3ShardState.Persisted p)) {
            throw new IllegalArgumentException(state.target() + ": not an open shard's state");
        }
        // Numbering goes on at parts + 1: parts a failed attempt uploaded later are overwritten
        // or left out of the completion.
        return new S3ShardOutput(this, p, partSize);
    }

    @Override
    public String commit(byte[] closed) throws IOException {
        S3ShardState.Closed shard = closed(closed);
        S3Location at = S3Location.of(shard.target());
        // Never complete over an object with other bytes; an equal one is an earlier commit.
        if (S3ExistingShard.find(s3, at, shard).isPresent()) {
            return shard.target();
        }
        if (shard.uploadId() == null) {
            call(
                    "PutObject " + shard.target(),
                    () ->
                            s3.putObject(
                                    b ->
                                            b.bucket(at.bucket())
                                                    .key(at.key())
                                                    .metadata(
                                                            Map.of(TOKEN_METADATA, shard.token())),
                                    RequestBody.empty()));
            return shard.target();
        }
        List<CompletedPart> parts = new ArrayList<>();
        for (S3ShardState.Part part : shard.parts()) {
            parts.add(CompletedPart.builder().partNumber(part.number()).eTag(part.etag()).build());
        }
        try {
            s3.completeMultipartUpload(
                    b ->
                            b.bucket(at.bucket())
                                    .key(at.key())
                                    .uploadId(shard.uploadId())
                                    .multipartUpload(m -> m.parts(parts)));
        } catch (S3Exception e) {
            if (!isNoSuchUpload(e)) {
                throw new IOException("CompleteMultipartUpload " + shard.target() + ": " + e, e);
            }
            if (S3ExistingShard.find(s3, at, shard).isEmpty()) {
                throw new IOException(
                        shard.target()
                                + ": its multipart upload "
                                + shard.uploadId()
                                + " no longer exists (aborted: by a restore of another checkpoint,"
                                + " by hand or by a lifecycle rule) and the object is missing;"
                                + " the shard's bytes are lost",
                        e);
            }
        } catch (SdkException e) {
            throw new IOException("CompleteMultipartUpload " + shard.target() + ": " + e, e);
        }
        return shard.target();
    }

    @Override
    public String targetOf(byte[] closed) throws IOException {
        return closed(closed).target();
    }

    @Override
    public void cleanUpAfterRestore(RestoreScope scope) throws IOException {
        String keyMarker = null;
        String uploadIdMarker = null;
        int aborted = 0;
        while (true) {
            String km = keyMarker;
            String um = uploadIdMarker;
            ListMultipartUploadsResponse page =
                    call(
                            "ListMultipartUploads s3://"
                                    + base.bucket()
                                    + "/"
                                    + base.directoryPrefix(),
                            () ->
                                    s3.listMultipartUploads(
                                            b ->
                                                    b.bucket(base.bucket())
                                                            .prefix(base.directoryPrefix())
                                                            .keyMarker(km)
                                                            .uploadIdMarker(um)));
            for (MultipartUpload upload : page.uploads()) {
                if (upload.key().startsWith(base.directoryPrefix())
                        && inScope(upload.key(), namePrefix, scope)) {
                    abort(upload.key(), upload.uploadId());
                    aborted++;
                }
            }
            if (!Boolean.TRUE.equals(page.isTruncated())) {
                break;
            }
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
        }
        LOG.info(
                "Aborted {} multipart uploads under s3://{}/{} left by {}",
                aborted,
                base.bucket(),
                base.directoryPrefix(),
                scope);
    }

    /** Opened by the restored job after the restored checkpoint by a subtask now mapped here. */
    static boolean inScope(String key, String namePrefix, RestoreScope scope) {
        Optional<ShardName> name =
                ShardName.parse(key.substring(key.lastIndexOf('/') + 1), namePrefix);
        return name.isPresent()
                && name.get().jobId().equals(scope.restoredJobId())
                && name.get().epoch() > scope.restoredCheckpointId()
                && name.get().subtask() % scope.parallelism() == scope.subtask();
    }

    /** Aborts what this store opened and nothing handed out; a checkpoint may hold the rest. */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        try {
            for (String uploadId : List.copyOf(unpersisted)) {
                try {
                    abort(keyOfUpload.get(uploadId), uploadId);
                } catch (IOException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
        } finally {
            s3.close();
        }
        if (failure != null) {
            throw failure;
        }
    }

    String createUpload(String target, String token) throws IOException {
        S3Location at = S3Location.of(target);
        String uploadId =
                call(
                                "CreateMultipartUpload " + target,
                                () ->
                                        s3.createMultipartUpload(
                                                b ->
                                                        b.bucket(at.bucket())
                                                                .key(at.key())
                                                                .metadata(
                                                                        Map.of(
                                                                                TOKEN_METADATA,
                                                                                token))))
                        .uploadId();
        unpersisted.add(uploadId);
        keyOfUpload.put(uploadId, at.key());
        return uploadId;
    }

    String uploadPart(
            String target, String uploadId, int number, ContentStreamProvider bytes, int length)
            throws IOException {
        S3Location at = S3Location.of(target);
        try {
            return s3.uploadPart(
                            b ->
                                    b.bucket(at.bucket())
                                            .key(at.key())
                                            .uploadId(uploadId)
                                            .partNumber(number)
                                            .contentLength((long) length),
                            RequestBody.fromContentProvider(
                                    bytes, length, "application/octet-stream"))
                    .eTag();
        } catch (S3Exception e) {
            if (isNoSuchUpload(e)) {
                throw new IOException(
                        target
                                + ": multipart upload "
                                + uploadId
                                + " no longer exists; the shard was completed or aborted after"
                                + " the checkpoint restored from: restore the latest checkpoint",
                        e);
            }
            throw new IOException("UploadPart " + number + " of " + target + ": " + e, e);
        } catch (SdkException e) {
            throw new IOException("UploadPart " + number + " of " + target + ": " + e, e);
        }
    }

    void handedOut(String uploadId) {
        unpersisted.remove(uploadId);
        keyOfUpload.remove(uploadId);
    }

    private void abort(String key, String uploadId) throws IOException {
        call(
                "AbortMultipartUpload " + uploadId + " of s3://" + base.bucket() + "/" + key,
                () ->
                        s3.abortMultipartUpload(
                                b -> b.bucket(base.bucket()).key(key).uploadId(uploadId)));
        handedOut(uploadId);
    }

    private static S3ShardState.Closed closed(byte[] bytes) throws IOException {
        S3ShardState state = S3ShardStateSerializer.fromBytes(bytes);
        if (!(state instanceof S3ShardState.Closed c)) {
            throw new IllegalArgumentException(state.target() + ": not a closed shard's state");
        }
        return c;
    }

    private static boolean isNoSuchUpload(S3Exception e) {
        return e instanceof NoSuchUploadException
                || (e.awsErrorDetails() != null
                        && "NoSuchUpload".equals(e.awsErrorDetails().errorCode()));
    }

    private static <T> T call(String what, Supplier<T> request) throws IOException {
        try {
            return request.get();
        } catch (SdkException e) {
            throw new IOException(what + ": " + e.getMessage(), e);
        }
    }
}
