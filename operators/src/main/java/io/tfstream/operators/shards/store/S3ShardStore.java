package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
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
 * Nothing is visible before the commit.
 *
 * <p>Never overwrites: completions and single-part puts carry {@code If-None-Match: *} where the
 * store honours it, and an existing object is taken as an earlier commit of the same shard only
 * when its bytes match ({@link S3ExistingShard}). Never aborts an upload it handed to a checkpoint;
 * see {@link ShardStore}.
 */
@Internal
public final class S3ShardStore implements ShardStore {
    /** User metadata set on each upload: lets a repeated commit recognise its object. */
    static final String TOKEN_METADATA = "tfstream-token";

    private final S3Client s3;
    private final int partSize;
    private final S3Encryption encryption;

    /** Uploads this store created that no persist or hand-over has handed out yet, with keys. */
    private final Set<String> unpersisted = new LinkedHashSet<>();

    private final Map<String, S3Location> locationOfUpload = new HashMap<>();

    S3ShardStore(S3Client s3, int partSize, S3Encryption encryption) {
        this.s3 = s3;
        this.partSize = partSize;
        this.encryption = encryption;
    }

    @Override
    public ShardOutput open(String target) {
        S3Location.of(target);
        return new S3ShardOutput(
                this,
                new S3ShardState.Persisted(
                        target, UUID.randomUUID().toString(), null, List.of(), 0, new byte[0]),
                partSize,
                1);
    }

    @Override
    public ShardOutput resume(byte[] persisted, String copyTarget) throws IOException {
        S3ShardState state = S3ShardStateSerializer.fromBytes(persisted);
        if (!(state instanceof S3ShardState.Persisted p)) {
            throw new IllegalArgumentException(state.target() + ": not an open shard's state");
        }
        if (p.uploadId() == null) {
            // Every byte is in the state: continue as a new shard, sharing nothing with another
            // writer restored from the same snapshot.
            S3Location.of(copyTarget);
            return new S3ShardOutput(
                    this,
                    new S3ShardState.Persisted(
                            copyTarget, UUID.randomUUID().toString(), null, List.of(), 0, p.tail()),
                    partSize,
                    1);
        }
        // Uploaded parts cannot be read back: the upload itself goes on. A second writer on it
        // fails at its commit (ETag comparison), never mixing two histories in one object.
        requireUpload(p.target(), p.uploadId());
        return continued(p);
    }

    @Override
    public boolean resumesInPlace(byte[] persisted) throws IOException {
        return S3ShardStateSerializer.fromBytes(persisted) instanceof S3ShardState.Persisted p
                && p.uploadId() != null;
    }

    /** {@code p} continued in its own upload. */
    S3ShardOutput continued(S3ShardState.Persisted p) {
        // Numbering goes on past a gap: parts a failed attempt uploaded later are left out of the
        // completion, and a stalled writer of it that comes back replaces none of this one's.
        int last = p.parts().isEmpty() ? 0 : p.parts().get(p.parts().size() - 1).number();
        return new S3ShardOutput(this, p, partSize, last + 1 + S3ShardOutput.RESTORE_GAP);
    }

    /**
     * Fails with {@link LostShardException} when the upload no longer exists. Listed by its exact
     * key, which every store answers (MinIO lists only whole keys; S3Proxy's ListParts answers an
     * aborted upload with no parts instead of an error).
     */
    private void requireUpload(String target, String uploadId) throws IOException {
        if (!uploadExists(S3Location.of(target), uploadId)) {
            throw new LostShardException(target, lostUpload(uploadId), null);
        }
    }

    /** Every incomplete upload of {@code bucket} whose key starts with {@code prefix} (or all). */
    static List<MultipartUpload> listUploads(S3Client s3, String bucket, String prefix)
            throws IOException {
        List<MultipartUpload> all = new ArrayList<>();
        String keyMarker = null;
        String uploadIdMarker = null;
        while (true) {
            String km = keyMarker;
            String um = uploadIdMarker;
            ListMultipartUploadsResponse page =
                    call(
                            "ListMultipartUploads s3://"
                                    + bucket
                                    + "/"
                                    + (prefix == null ? "" : prefix),
                            () ->
                                    s3.listMultipartUploads(
                                            b ->
                                                    b.bucket(bucket)
                                                            .prefix(prefix)
                                                            .keyMarker(km)
                                                            .uploadIdMarker(um)));
            all.addAll(page.uploads());
            if (!Boolean.TRUE.equals(page.isTruncated())) {
                return all;
            }
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
        }
    }

    @Override
    public String commit(byte[] closed) throws IOException {
        S3ShardState.Closed shard = closed(closed);
        S3Location at = S3Location.of(shard.target());
        // A store that ignores If-None-Match would overwrite: look first.
        if (existing(at, shard).isPresent()) {
            return shard.target();
        }
        try {
            if (shard.uploadId() == null) {
                s3.putObject(
                        b ->
                                encryption
                                        .apply(b)
                                        .bucket(at.bucket())
                                        .key(at.key())
                                        .ifNoneMatch("*")
                                        .metadata(Map.of(TOKEN_METADATA, shard.token())),
                        RequestBody.empty());
                return shard.target();
            }
            List<CompletedPart> parts = new ArrayList<>();
            for (S3ShardState.Part part : shard.parts()) {
                parts.add(
                        CompletedPart.builder()
                                .partNumber(part.number())
                                .eTag(part.etag())
                                .build());
            }
            s3.completeMultipartUpload(
                    b ->
                            b.bucket(at.bucket())
                                    .key(at.key())
                                    .uploadId(shard.uploadId())
                                    .ifNoneMatch("*")
                                    .multipartUpload(m -> m.parts(parts)));
        } catch (S3Exception e) {
            // 412: an object appeared since the look (a first try of this commit that went
            // through); no such upload: an earlier try completed it, or it is lost.
            boolean precondition = e.statusCode() == 412;
            if (isInvalidPart(e)) {
                // A part this shard holds was uploaded again with other bytes: another writer
                // continues the same upload. Whoever completes first wins; this shard is lost.
                throw new LostShardException(
                        shard.target(),
                        "a part of its multipart upload "
                                + shard.uploadId()
                                + " was replaced with other bytes: another job restored from the"
                                + " same checkpoint or savepoint continues this shard",
                        e);
            }
            if (!precondition && !isNoSuchUpload(e)) {
                throw new IOException("commit of " + shard.target() + ": " + e.getMessage(), e);
            }
            if (existing(at, shard).isEmpty()) {
                if (precondition) {
                    throw new IOException("commit of " + shard.target() + ": " + e.getMessage(), e);
                }
                throw new LostShardException(
                        shard.target(),
                        lostUpload(shard.uploadId()) + " and no object is there",
                        e);
            }
        } catch (SdkException e) {
            throw new IOException("commit of " + shard.target() + ": " + e.getMessage(), e);
        }
        return shard.target();
    }

    /**
     * The shard's object if an earlier commit made it. Another object at its key while the shard's
     * own upload is gone means another job continued the same upload (restored from the same
     * snapshot) and completed it first: the shard is lost to this job. With the upload still there
     * it is a name taken by someone else, an error.
     */
    private java.util.Optional<software.amazon.awssdk.services.s3.model.HeadObjectResponse>
            existing(S3Location at, S3ShardState.Closed shard) throws IOException {
        try {
            return S3ExistingShard.find(s3, at, shard);
        } catch (S3ExistingShard.OtherObject e) {
            if (shard.uploadId() != null && !uploadExists(at, shard.uploadId())) {
                throw new LostShardException(
                        shard.target(), lostUpload(shard.uploadId()) + "; " + e.getMessage(), e);
            }
            throw e;
        }
    }

    private boolean uploadExists(S3Location at, String uploadId) throws IOException {
        for (MultipartUpload u : listUploads(s3, at.bucket(), at.key())) {
            if (u.key().equals(at.key()) && u.uploadId().equals(uploadId)) {
                return true;
            }
        }
        return false;
    }

    private static String lostUpload(String uploadId) {
        return "its multipart upload "
                + uploadId
                + " no longer exists (aborted by hand, by tfstream shards uploads --abort, by a"
                + " lifecycle rule or by a store that expires stale uploads, or completed by"
                + " another job restored from the same checkpoint or savepoint)";
    }

    /** Nothing: a resume either holds every byte in the state or continues the upload itself. */
    @Override
    public void retire(byte[] persisted) {}

    /** Aborts the uploads at {@code target}'s key: those of failed attempts' copies. */
    @Override
    public void discardStale(String target) throws IOException {
        S3Location at = S3Location.of(target);
        for (MultipartUpload u : listUploads(s3, at.bucket(), at.key())) {
            if (!u.key().equals(at.key())) {
                continue;
            }
            abort(at, u.uploadId());
        }
    }

    @Override
    public void discardAfter(byte[] persisted) throws IOException {
        if (S3ShardStateSerializer.fromBytes(persisted) instanceof S3ShardState.Persisted p
                && p.uploadId() == null) {
            // every byte was in the checkpoint: an upload at its key came later
            discardStale(p.target());
        }
    }

    /** Aborts upload {@code uploadId} at {@code at}; one already gone is no error. */
    private void abort(S3Location at, String uploadId) throws IOException {
        try {
            call(
                    "AbortMultipartUpload " + uploadId + " of " + at,
                    () ->
                            s3.abortMultipartUpload(
                                    b -> b.bucket(at.bucket()).key(at.key()).uploadId(uploadId)));
        } catch (IOException e) {
            if (!(e.getCause() instanceof S3Exception s && isNoSuchUpload(s))) {
                throw e;
            }
        }
    }

    @Override
    public void handOver(byte[] closed) throws IOException {
        String uploadId = closed(closed).uploadId();
        if (uploadId != null) {
            handedOut(uploadId);
        }
    }

    @Override
    public String targetOf(byte[] closed) throws IOException {
        return closed(closed).target();
    }

    /** Aborts what this store opened and nothing handed out; a checkpoint may hold the rest. */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        try {
            List<String> left;
            synchronized (this) {
                left = List.copyOf(unpersisted);
            }
            for (String uploadId : left) {
                try {
                    S3Location at;
                    synchronized (this) {
                        at = locationOfUpload.get(uploadId);
                    }
                    abort(at, uploadId); // gone already (aborted from outside): fine
                    handedOut(uploadId);
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
                                                        encryption
                                                                .apply(b)
                                                                .bucket(at.bucket())
                                                                .key(at.key())
                                                                .metadata(
                                                                        Map.of(
                                                                                TOKEN_METADATA,
                                                                                token))))
                        .uploadId();
        synchronized (this) {
            unpersisted.add(uploadId);
            locationOfUpload.put(uploadId, at);
        }
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
                throw new LostShardException(target, lostUpload(uploadId), e);
            }
            throw new IOException("UploadPart " + number + " of " + target + ": " + e, e);
        } catch (SdkException e) {
            throw new IOException("UploadPart " + number + " of " + target + ": " + e, e);
        }
    }

    synchronized void handedOut(String uploadId) {
        unpersisted.remove(uploadId);
        locationOfUpload.remove(uploadId);
    }

    private static S3ShardState.Closed closed(byte[] bytes) throws IOException {
        S3ShardState state = S3ShardStateSerializer.fromBytes(bytes);
        if (!(state instanceof S3ShardState.Closed c)) {
            throw new IllegalArgumentException(state.target() + ": not a closed shard's state");
        }
        return c;
    }

    private static boolean isInvalidPart(S3Exception e) {
        return e.awsErrorDetails() != null && "InvalidPart".equals(e.awsErrorDetails().errorCode());
    }

    static boolean isNoSuchUpload(S3Exception e) {
        return e instanceof NoSuchUploadException
                || (e.awsErrorDetails() != null
                        && "NoSuchUpload".equals(e.awsErrorDetails().errorCode()));
    }

    static <T> T call(String what, Supplier<T> request) throws IOException {
        try {
            return request.get();
        } catch (SdkException e) {
            throw new IOException(what + ": " + e.getMessage(), e);
        }
    }
}
