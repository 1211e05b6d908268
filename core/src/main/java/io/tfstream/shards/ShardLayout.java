package io.tfstream.shards;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Where the shard sink puts what it writes besides shards: manifests, {@code _SUCCESS} markers,
 * DALI index files and schema copies.
 *
 * <p>{@link #SEPARATE} (the default) keeps them in a {@value #METADATA_DIR} tree under the base
 * path that mirrors the bucket directories, every name in it starting with {@code _}: the manifest
 * of {@code <base>/dt=1/hour=2/<shard>} is {@code
 * <base>/_tfstream/_dt=1/_hour=2/_<shard>.manifest.json}, the bucket's marker {@code
 * <base>/_tfstream/_dt=1/_hour=2/_SUCCESS}. Directory listers that skip names starting with {@code
 * _} (Flink, Spark, Hadoop) never enter it; Flink's partition discovery, which looks only at the
 * names at the depth of the partition columns, skips it at every depth; and a glob inside a bucket
 * directory finds shards only. {@link #INLINE} keeps everything beside the shards, as tfstream did
 * before.
 *
 * <p>Paths here are strings with {@code /} separators, so the same rules serve Flink's file
 * systems, URIs and local paths.
 */
@PublicEvolving
public enum ShardLayout {
    SEPARATE,
    INLINE;

    /** The metadata tree's directory name under the base path. */
    public static final String METADATA_DIR = "_tfstream";

    /** The directory of schema copies in the metadata tree. */
    public static final String SCHEMAS_DIR = "_schemas";

    /** The schema copy's file name in its fingerprint's directory. */
    public static final String SCHEMA_FILE = "_schema.pbtxt";

    /** The suffix of a DALI index file's name, after the shard's own name. */
    public static final String INDEX_SUFFIX = ".idx";

    /**
     * The directory of a bucket's feature statistics in its metadata directory: a TFX {@code
     * ExampleStatistics} artifact ({@code Split-<name>/FeatureStats.pb}) with data splits.
     */
    public static final String STATISTICS_DIR = "_statistics";

    /** The file of one data split's (or the bucket's) statistics, as TFX names it. */
    public static final String STATISTICS_FILE = "FeatureStats.pb";

    /** The suffix of a shard's own statistics file, after {@code _<shard>}. */
    public static final String SHARD_STATISTICS_SUFFIX = ".statistics";

    /** The data directory of bucket {@code bucket} ("" is the base path itself). */
    public static String dataDir(String base, String bucket) {
        String b = trimSlash(base);
        return bucket.isEmpty() ? b : b + "/" + bucket;
    }

    /** The directory holding the metadata of bucket {@code bucket}'s shards. */
    public String metadataDir(String base, String bucket) {
        if (this == INLINE) {
            return dataDir(base, bucket);
        }
        StringBuilder dir = new StringBuilder(trimSlash(base)).append('/').append(METADATA_DIR);
        if (!bucket.isEmpty()) {
            for (String level : bucket.split("/")) {
                dir.append("/_").append(level);
            }
        }
        return dir.toString();
    }

    /** The manifest of shard {@code shard} (a file name) of bucket {@code bucket}. */
    public String manifestPath(String base, String bucket, String shard) {
        return metadataDir(base, bucket) + "/" + name(shard + ShardManifest.SUFFIX);
    }

    /** The DALI index file of shard {@code shard} of bucket {@code bucket}. */
    public String indexPath(String base, String bucket, String shard) {
        return metadataDir(base, bucket) + "/" + name(shard + INDEX_SUFFIX);
    }

    /**
     * The file name of shard {@code shard}'s own statistics, beside its manifest: hidden in both
     * layouts (readers of the inline layout's bucket directories skip names starting with {@code
     * _}).
     */
    public static String shardStatisticsName(String shard) {
        return "_" + shard + SHARD_STATISTICS_SUFFIX;
    }

    /**
     * The statistics of event-time bucket {@code bucket}: of data split {@code split}'s records
     * ({@code _statistics/Split-<split>/FeatureStats.pb}, TFX's layout), or of all its records for
     * a null split ({@code _statistics/FeatureStats.pb}).
     */
    public String statisticsPath(String base, String bucket, String split) {
        String dir = metadataDir(base, bucket) + "/" + STATISTICS_DIR;
        return (split == null ? dir : dir + "/Split-" + split) + "/" + STATISTICS_FILE;
    }

    /** The {@code _SUCCESS} marker of event-time bucket {@code bucket}. */
    public String markerPath(String base, String bucket) {
        return metadataDir(base, bucket) + "/" + ShardSuccessMarker.FILE_NAME;
    }

    /** A file's name in this layout's metadata directory: hidden in the separate tree. */
    private String name(String file) {
        return this == SEPARATE ? "_" + file : file;
    }

    /**
     * The copy of the schema with fingerprint {@code fingerprint}, relative to the base path: the
     * same in both layouts, since nothing read it before.
     */
    public static String schemaPath(String fingerprint) {
        return METADATA_DIR + "/" + SCHEMAS_DIR + "/_" + fingerprint + "/" + SCHEMA_FILE;
    }

    /**
     * Where the manifest of the shard at {@code shard} may be, nearest first: beside it (the inline
     * layout), then in the metadata tree of each enclosing directory that could be the base path.
     * For readers given a shard without its base path ({@code tfstream verify --manifest}).
     */
    public static List<String> manifestCandidates(String shard) {
        return candidates(shard, ShardManifest.SUFFIX);
    }

    /**
     * The manifest of local shard {@code shard}, in whichever layout wrote it: the first of {@link
     * #manifestCandidates} that is a file, as an absolute path.
     */
    public static java.util.Optional<java.nio.file.Path> findManifest(java.nio.file.Path shard) {
        for (String c : manifestCandidates(shard.toAbsolutePath().normalize().toString())) {
            java.nio.file.Path p = java.nio.file.Path.of(c);
            if (java.nio.file.Files.isRegularFile(p)) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }

    /** Where the DALI index file of the shard at {@code shard} may be, nearest first. */
    public static List<String> indexCandidates(String shard) {
        return candidates(shard, INDEX_SUFFIX);
    }

    private static List<String> candidates(String shard, String suffix) {
        List<String> out = new ArrayList<>();
        out.add(shard + suffix);
        for (int i = shard.lastIndexOf('/'); i > 0; i = shard.lastIndexOf('/', i - 1)) {
            String base = shard.substring(0, i);
            if (base.endsWith(":") || base.endsWith("/")) {
                break; // the scheme of a URI: no base path above its authority
            }
            StringBuilder meta = new StringBuilder(base).append('/').append(METADATA_DIR);
            for (String level : shard.substring(i + 1).split("/")) {
                meta.append("/_").append(level);
            }
            out.add(meta.append(suffix).toString());
        }
        return out;
    }

    /**
     * Whether directory {@code name} holds one data split's shards (TFX's {@code Split-<name>}), or
     * their metadata ({@code _Split-<name>} in the separate tree).
     */
    public static boolean isSplitDir(String name) {
        return name.startsWith("Split-") || name.startsWith("_Split-");
    }

    private static String trimSlash(String base) {
        return base.endsWith("/") && base.length() > 1
                ? base.substring(0, base.length() - 1)
                : base;
    }
}
