package io.tfstream.job;

import io.tfstream.api.options.ShardOptions;
import io.tfstream.operators.shards.store.S3Encryption;
import io.tfstream.operators.shards.store.S3ShardStoreFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The S3 settings of {@code s3://} paths as the Flink configuration keys {@code flink-s3-fs-hadoop}
 * reads when the file system is initialised: {@code s3.endpoint} and {@code s3.path.style.access}
 * in the job's configuration, {@code s3.access-key} and {@code s3.secret-key} only where this JVM's
 * file systems are initialised. Credentials come from {@code s3.credentials-file} (properties
 * {@code access-key} and {@code secret-key}) or the environment ({@code AWS_ACCESS_KEY_ID}, {@code
 * AWS_SECRET_ACCESS_KEY}); without either, the AWS default chain applies. Secrets are never part of
 * a message, a job graph or a file readable by others.
 */
public final class S3Settings {
    /** The Flink S3 file systems' endpoint key ({@code flink-s3-fs-hadoop}). */
    static final ConfigOption<String> FLINK_S3_ENDPOINT =
            ConfigOptions.key("s3.endpoint").stringType().noDefaultValue();

    /** The Flink S3 file systems' path-style key. */
    static final ConfigOption<Boolean> FLINK_S3_PATH_STYLE =
            ConfigOptions.key("s3.path.style.access").booleanType().defaultValue(false);

    private S3Settings() {}

    /**
     * Adds the S3 endpoint and path style of {@code config} to {@code flink}: the settings a job's
     * Flink configuration (and with it its job graph) may carry.
     */
    public static void applyLocation(JobConfig config, Configuration flink) {
        if (config.orNull(JobOptions.S3_ENDPOINT) != null) {
            flink.setString("s3.endpoint", config.orNull(JobOptions.S3_ENDPOINT));
        }
        if (config.get(JobOptions.S3_PATH_STYLE_ACCESS)) {
            flink.setString("s3.path.style.access", "true");
        }
    }

    /**
     * Adds the S3 credentials of {@code config} (read as documented) to {@code flink}, for Flink's
     * file systems in this JVM only ({@link JobLauncher#initializeFileSystems}): never to the
     * configuration a job is built with, which travels in its job graph and shows in the web UI.
     */
    static void applyCredentials(JobConfig config, Map<String, String> env, Configuration flink) {
        applyCredentials(credentialsFile(config), env, flink);
    }

    /**
     * Initialises Flink's file systems in this JVM for a command that reads what a job wrote
     * (checkpoints, savepoints): the S3 endpoint, path style and credentials as a job takes them,
     * {@code credentialsFile} null for the environment or the default chain.
     */
    public static void initializeFileSystems(
            String endpoint, boolean pathStyle, Path credentialsFile) {
        Configuration flink = new Configuration();
        if (endpoint != null) {
            flink.set(FLINK_S3_ENDPOINT, endpoint);
        }
        flink.set(FLINK_S3_PATH_STYLE, pathStyle);
        applyCredentials(credentialsFile, System.getenv(), flink);
        JobLauncher.initializeFileSystems(flink);
    }

    private static void applyCredentials(Path file, Map<String, String> env, Configuration flink) {
        String access = env.get("AWS_ACCESS_KEY_ID");
        String secret = env.get("AWS_SECRET_ACCESS_KEY");
        if (file != null) {
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
    static S3ShardStoreFactory shardStoreFactory(
            JobConfig config, String path, ReadableConfig flink) {
        StageView shards = config.view(JobOptionStage.SHARDS);
        long partSize = shards.get(ShardOptions.PART_SIZE).getBytes();
        // Without the job's own s3.* options, the S3 file system settings of the Flink
        // configuration the job is built with (a cluster's, when the job runs there) apply.
        return new S3ShardStoreFactory(
                path,
                shards.get(ShardOptions.PREFIX),
                config.contains(JobOptions.S3_ENDPOINT)
                        ? config.orNull(JobOptions.S3_ENDPOINT)
                        : flink.getOptional(FLINK_S3_ENDPOINT).orElse(null),
                config.get(JobOptions.S3_PATH_STYLE_ACCESS)
                        || flink.getOptional(FLINK_S3_PATH_STYLE).orElse(false),
                null,
                credentialsFile(config) == null
                        ? null
                        : credentialsFile(config).toAbsolutePath().toString(),
                (int) partSize,
                encryption(config));
    }

    /** {@code s3.credentials-file}, or null. */
    private static Path credentialsFile(JobConfig config) {
        String file = config.orNull(JobOptions.S3_CREDENTIALS_FILE);
        return file == null ? null : Path.of(file);
    }

    /**
     * The server-side encryption of shard objects; a KMS key without a KMS algorithm is refused.
     */
    static S3Encryption encryption(JobConfig config) {
        JobOptions.S3ServerSideEncryption sse = config.get(JobOptions.S3_SERVER_SIDE_ENCRYPTION);
        String key = config.orNull(JobOptions.S3_SSE_KMS_KEY_ID);
        if (key != null
                && sse != JobOptions.S3ServerSideEncryption.SSE_KMS
                && sse != JobOptions.S3ServerSideEncryption.DSSE_KMS) {
            throw new JobConfigException(
                    "s3.sse-kms-key-id needs s3.server-side-encryption sse_kms or dsse_kms (it is "
                            + sse.name().toLowerCase(java.util.Locale.ROOT)
                            + ")");
        }
        return new S3Encryption(sse.header(), key);
    }
}
