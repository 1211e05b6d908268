package io.tfstream.local;

import io.tfstream.convert.InputFormat;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code tfstream local} runs, as given on its command line; {@code LocalCommand} has refused
 * the combinations that make no sense. {@code inputFormat} is what {@code input} holds (Examples in
 * a TFRecord file, JSON Lines, an Avro container file). With {@code nextSchema} the run writes that
 * file to the path the job watches once the job has read the first {@code nextSchemaAfter} records
 * (docs/cli.md#tfstream-local). {@code brokerConfig} holds the client settings for {@code broker}.
 */
public record LocalOptions(
        Path schema,
        Path featureSpec,
        Path input,
        Integer records,
        double corruptFraction,
        long seed,
        Path out,
        int partitions,
        int parallelism,
        Compression compression,
        Path config,
        List<String> sets,
        Path summaryJson,
        String broker,
        Path brokerConfig,
        S3Target s3,
        boolean s3proxy,
        int restPort,
        Integer metricsPort,
        Path files,
        InputFormat inputFormat,
        Path nextSchema,
        long nextSchemaAfter) {

    /**
     * Shards on an object store: {@code endpoint} (null: AWS), {@code bucket}, an {@code
     * s3.credentials-file} (null: credentials from the environment or the job options), and whether
     * requests are path-style (S3Proxy, MinIO).
     */
    public record S3Target(
            String endpoint, String bucket, Path credentialsFile, boolean pathStyle) {}
}
