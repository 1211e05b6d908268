package io.tfstream.job;

import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;

/**
 * The S3 settings of {@code s3://} shard paths as the Flink configuration keys {@code
 * flink-s3-fs-hadoop} reads when the file system is initialised: {@code s3.endpoint}, {@code
 * s3.path.style.access}, {@code s3.access-key}, {@code s3.secret-key}. Credentials come from {@code
 * s3.credentials-file} (properties {@code access-key} and {@code secret-key}) or the environment
 * ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}); without either, the AWS default chain
 * applies. Secrets are never part of a message.
 */
public final class S3Settings {
    private S3Settings() {}

    /** Adds the S3 keys of {@code config} to {@code flink}, reading credentials as documented. */
    /** Writes an {@code s3.credentials-file} holding these keys; returns {@code file}. */
    public static java.nio.file.Path writeCredentialsFile(
            java.nio.file.Path file, String accessKey, String secretKey)
            throws java.io.IOException {
        return java.nio.file.Files.writeString(
                file, "access-key=" + accessKey + "\nsecret-key=" + secretKey + "\n");
    }

    public static void apply(JobConfig config, Map<String, String> env, Configuration flink) {
        if (config.contains(JobOptions.S3_ENDPOINT)) {
            flink.setString("s3.endpoint", config.get(JobOptions.S3_ENDPOINT));
        }
        if (config.get(JobOptions.S3_PATH_STYLE_ACCESS)) {
            flink.setString("s3.path.style.access", "true");
        }
        String access = env.get("AWS_ACCESS_KEY_ID");
        String secret = env.get("AWS_SECRET_ACCESS_KEY");
        if (config.contains(JobOptions.S3_CREDENTIALS_FILE)) {
            Path file = Path.of(config.get(JobOptions.S3_CREDENTIALS_FILE));
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new JobConfigException(
                        "s3.credentials-file: cannot read "
                                + file
                                + ": "
                                + e.getClass().getSimpleName(),
                        e);
            }
            access = p.getProperty("access-key");
            secret = p.getProperty("secret-key");
            if (access == null || secret == null) {
                throw new JobConfigException(
                        "s3.credentials-file: " + file + " must hold access-key and secret-key");
            }
        }
        if (access != null && secret != null) {
            flink.setString("s3.access-key", access);
            flink.setString("s3.secret-key", secret);
        }
    }

    /**
     * The shard store of S3 shards under {@code path}: tfstream's own multipart uploads (never
     * Flink's S3 writer), with the endpoint, path style and credentials file of these settings; the
     * credentials themselves are read on the task, never put into the job graph.
     */
    static S3ShardStoreFactory shardStoreFactory(JobConfig config, String path) {
        long partSize = config.get(JobOptions.SHARDS_PART_SIZE).getBytes();
        return new S3ShardStoreFactory(
                path,
                config.get(JobOptions.SHARDS_PREFIX),
                config.contains(JobOptions.S3_ENDPOINT) ? config.get(JobOptions.S3_ENDPOINT) : null,
                config.get(JobOptions.S3_PATH_STYLE_ACCESS),
                null,
                config.contains(JobOptions.S3_CREDENTIALS_FILE)
                        ? Path.of(config.get(JobOptions.S3_CREDENTIALS_FILE))
                                .toAbsolutePath()
                                .toString()
                        : null,
                (int) partSize);
    }
}
