package io.tfstream.operators.shards.store;

import io.tfstream.api.options.ShardOptions;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Settings of an {@link S3ShardStore}; the client is built on the task. Holds no secrets: {@code
 * credentialsFile} (properties {@code access-key}, {@code secret-key}, as {@code
 * s3.credentials-file}) is read where the store is created; without it the SDK's default chain
 * applies (environment, system properties, profile, container or instance role).
 *
 * @param basePath {@code s3://bucket/prefix} under which shards are written
 * @param namePrefix the {@link ShardName} prefix of the shards' file names (how {@code tfstream
 *     shards uploads} tells the shards' uploads from others)
 * @param endpoint endpoint override (S3Proxy, MinIO), or null for AWS
 * @param pathStyle path-style access ({@code http://host/bucket/key})
 * @param region signing region, or null: us-east-1 with an endpoint, else the SDK's region chain
 * @param credentialsFile path of a credentials file on the task, or null for the default chain
 * @param partSize bytes per multipart part, the heap buffer of one open shard
 * @param encryption the server-side encryption of every shard object
 */
@PublicEvolving
public record S3ShardStoreFactory(
        String basePath,
        String namePrefix,
        String endpoint,
        boolean pathStyle,
        String region,
        String credentialsFile,
        int partSize,
        S3Encryption encryption)
        implements ShardStoreFactory {
    private static final long serialVersionUID = 1L;

    /** S3's smallest part but the last. */
    public static final int MIN_PART_SIZE = ShardOptions.MIN_PART_SIZE;

    public static final int DEFAULT_PART_SIZE = MIN_PART_SIZE;

    /** One such buffer per open shard lives on the heap. */
    public static final int MAX_PART_SIZE = ShardOptions.MAX_PART_SIZE;

    /** Settings without a server-side encryption header (the bucket's default applies). */
    public S3ShardStoreFactory(
            String basePath,
            String namePrefix,
            String endpoint,
            boolean pathStyle,
            String region,
            String credentialsFile,
            int partSize) {
        this(
                basePath,
                namePrefix,
                endpoint,
                pathStyle,
                region,
                credentialsFile,
                partSize,
                S3Encryption.NONE);
    }

    public S3ShardStoreFactory {
        encryption = encryption == null ? S3Encryption.NONE : encryption;
        S3Location.of(basePath);
        new ShardName(namePrefix, "0".repeat(32), "0", 0, 0, "");
        if (partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
            throw new IllegalArgumentException(
                    "S3 part size "
                            + partSize
                            + " bytes is outside ["
                            + MIN_PART_SIZE
                            + ", "
                            + MAX_PART_SIZE
                            + "]: S3's minimum part is 5 MiB, and one part per open shard"
                            + " is held on the heap");
        }
    }

    @Override
    public S3ShardStore create() throws IOException {
        return new S3ShardStore(newClient(), partSize, encryption);
    }

    /** A client on these settings over the JDK's HTTP client; the caller closes it. */
    public S3Client newClient() throws IOException {
        S3ClientBuilder builder =
                S3Client.builder()
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .credentialsProvider(credentials())
                        .forcePathStyle(pathStyle)
                        // Checksums only where S3 requires them: S3Proxy and other S3 APIs
                        // reject the SDK's default trailing checksums on uploads.
                        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        if (endpoint != null) {
            builder.endpointOverride(URI.create(endpoint));
        }
        if (region != null) {
            builder.region(Region.of(region));
        } else if (endpoint != null) {
            builder.region(Region.US_EAST_1);
        } else {
            // Region from the SDK's chain; a bucket elsewhere is still reached.
            builder.crossRegionAccessEnabled(true);
        }
        return builder.build();
    }

    private AwsCredentialsProvider credentials() throws IOException {
        if (credentialsFile == null) {
            return DefaultCredentialsProvider.builder().build();
        }
        Path file = Path.of(credentialsFile);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        String access = p.getProperty("access-key");
        String secret = p.getProperty("secret-key");
        if (access == null || secret == null) {
            throw new IOException(
                    "S3 credentials file " + file + " must hold access-key and secret-key");
        }
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret));
    }
}
