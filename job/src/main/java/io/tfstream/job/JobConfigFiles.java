package io.tfstream.job;

import io.tfstream.text.Quoted;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads the job's settings: a YAML file (nested maps or dotted keys, both flattened to dotted keys;
 * lists kept as lists) plus {@code --set key=value} overrides, later ones winning.
 */
public final class JobConfigFiles {
    private JobConfigFiles() {}

    /** The flat settings of {@code yaml} (may be null) with {@code sets} applied. */
    public static Map<String, Object> read(Path yaml, List<String> sets) {
        Map<String, Object> flat = new LinkedHashMap<>();
        if (yaml != null) {
            flat.putAll(readYaml(yaml));
        }
        for (String s : sets) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new JobConfigException(
                        "--set expects key=value, got '" + Quoted.cut(s) + "'");
            }
            String key = s.substring(0, eq).trim();
            String value = s.substring(eq + 1);
            if (Secrets.isSecret(key) && !Secrets.isReference(value)) {
                // Program arguments end up in the JobManager's configuration, shown by the web UI.
                throw new JobConfigException(
                        "--set "
                                + key
                                + ": secrets are not taken on the command line, where a cluster"
                                + " keeps and shows them; put it in the --config file (read where"
                                + " the job starts) or, for Kafka settings, refer to it as"
                                + " ${file:/path/to/file.properties:key} or ${env:NAME}");
            }
            flat.put(key, value);
        }
        return flat;
    }

    static Map<String, Object> readYaml(Path yaml) {
        Object root;
        try (Reader r = Files.newBufferedReader(yaml, StandardCharsets.UTF_8)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
        } catch (NoSuchFileException e) {
            throw new JobConfigException("no such file: " + yaml, e);
        } catch (IOException e) {
            throw new JobConfigException("cannot read " + yaml + ": " + e, e);
        } catch (YAMLException e) {
            throw new JobConfigException(yaml + " is not valid YAML: " + e.getMessage(), e);
        }
        Map<String, Object> flat = new LinkedHashMap<>();
        if (root == null) {
            return flat;
        }
        if (!(root instanceof Map<?, ?> m)) {
            throw new JobConfigException(
                    yaml + ": expected a mapping of settings at the top level");
        }
        flatten("", m, flat);
        return flat;
    }

    private static void flatten(String prefix, Map<?, ?> m, Map<String, Object> out) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String key = prefix + e.getKey();
            Object v = e.getValue();
            if (v instanceof Map<?, ?> nested) {
                flatten(key + ".", nested, out);
            } else {
                out.put(key, v);
            }
        }
    }
}
