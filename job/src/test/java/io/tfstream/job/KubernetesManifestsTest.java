package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.spec.FlinkVersion;
import org.apache.flink.kubernetes.operator.api.spec.JobSpec;
import org.apache.flink.kubernetes.operator.api.spec.UpgradeMode;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * What can be checked of {@code deploy/kubernetes/} without a cluster: the manifests parse, the
 * {@code FlinkDeployment} passes the operator's CRD schema and deserialises into the operator's own
 * model, its Flink settings are Flink 2.2 options with valid values and the root pom's JVM flags,
 * the job options in the ConfigMap pass the job's own parser, and the image, the mounts, the Secret
 * and the README agree with each other.
 */
class KubernetesManifestsTest {
    private static final Path ROOT = Path.of("..");
    private static final Path DIR = ROOT.resolve("deploy/kubernetes");
    private static final String MAIN_CONTAINER = "flink-main-container";

    /** Kubernetes replaces a pod on an unreachable node after 300 s (default toleration). */
    private static final Duration NODE_LOSS_RECOVERY = Duration.ofMinutes(5);

    /** The broker's default transaction.max.timeout.ms. */
    private static final Duration BROKER_MAX_TRANSACTION_TIMEOUT = Duration.ofMinutes(15);

    @TempDir Path tmp;

    @Test
    void everyManifestParsesAndNamesItsKind() throws IOException {
        List<Map<?, ?>> docs = new ArrayList<>();
        for (Path file : manifestFiles()) {
            try (Reader r = Files.newBufferedReader(file)) {
                for (Object doc : yaml().loadAll(r)) {
                    Map<?, ?> m = map(doc, file.toString());
                    assertTrue(m.get("apiVersion") instanceof String, file + ": apiVersion");
                    assertTrue(m.get("kind") instanceof String, file + ": kind");
                    assertTrue(map(m.get("metadata"), file + ": metadata").get("name") != null);
                    docs.add(m);
                }
            }
        }
        assertEquals(
                List.of("ConfigMap", "FlinkDeployment", "PodMonitor"),
                docs.stream().map(d -> d.get("kind")).sorted().collect(Collectors.toList()));
    }

    @Test
    void flinkDeploymentPassesTheOperatorsCrdSchema() throws IOException {
        Map<String, Object> crd;
        try (InputStream in =
                FlinkDeployment.class.getResourceAsStream(
                        "/META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml")) {
            crd = yaml().load(in);
        }
        Map<?, ?> schema = null;
        for (Object v : list(map(crd.get("spec"), "crd").get("versions"), "versions")) {
            Map<?, ?> version = map(v, "version");
            if (version.get("name").equals("v1beta1")) {
                schema = map(map(version.get("schema"), "schema").get("openAPIV3Schema"), "");
            }
        }
        assertTrue(schema != null, "the operator's CRD has no v1beta1");
        // apiVersion, kind and metadata are the API server's own; the CRD describes spec.
        Map<?, ?> specSchema = map(map(schema.get("properties"), "").get("spec"), "spec schema");
        List<String> errors = new ArrayList<>();
        OpenApiCheck.check("spec", checkableDeployment().get("spec"), specSchema, errors);
        assertEquals(List.of(), errors);
    }

    @Test
    void flinkDeploymentDeserialisesIntoTheOperatorsModel() throws IOException {
        FlinkDeployment d = deployment();
        String name = d.getMetadata().getName();
        // The operator's own validator: a DNS label of at most 45 characters.
        assertTrue(name.matches("[a-z]([-a-z0-9]*[a-z0-9])?") && name.length() <= 45, name);
        assertFalse(d.getSpec().getServiceAccount().isBlank(), "spec.serviceAccount");
        assertFalse(d.getSpec().getJobManager().getResource().getMemory().isBlank());
        assertFalse(d.getSpec().getTaskManager().getResource().getMemory().isBlank());
        JobSpec job = d.getSpec().getJob();
        assertEquals(TfstreamJob.class.getName(), job.getEntryClass());
        assertTrue(job.getParallelism() > 0, "spec.job.parallelism");
        Map<String, String> flink = d.getSpec().getFlinkConfiguration();
        assertTrue(flink.containsKey(CheckpointingOptions.CHECKPOINTS_DIRECTORY.key()));
        if (job.getUpgradeMode() == UpgradeMode.SAVEPOINT) {
            assertTrue(flink.containsKey(CheckpointingOptions.SAVEPOINT_DIRECTORY.key()));
        }
        assertEquals("kubernetes", flink.get(HighAvailabilityOptions.HA_MODE.key()));
        for (ConfigOption<String> dir :
                List.of(
                        CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                        CheckpointingOptions.SAVEPOINT_DIRECTORY,
                        HighAvailabilityOptions.HA_STORAGE_PATH)) {
            assertTrue(flink.get(dir.key()).startsWith("s3://"), dir.key() + " on S3");
        }
    }

    /** The operator API on Maven Central may predate Flink 2.2: then the version is read apart. */
    @Test
    void flinkVersionIsTheOneTheJobIsBuiltWith() throws Exception {
        String[] v = rootPomProperty("flink.version").split("\\.");
        assertEquals(
                "v" + v[0] + "_" + v[1],
                map(rawDeployment().get("spec"), "spec").get("flinkVersion"));
    }

    @Test
    void jvmFlagsAreTheRootPomsJvmModuleFlags() throws Exception {
        assertEquals(
                rootPomProperty("jvm.module.flags"),
                deployment()
                        .getSpec()
                        .getFlinkConfiguration()
                        .get(CoreOptions.FLINK_JVM_OPTIONS.key()));
    }

    @Test
    void prometheusScrapesTheReportersPortOnEveryPod() throws Exception {
        FlinkDeployment d = deployment();
        String port = d.getSpec().getFlinkConfiguration().get(PrometheusEndpoint.PORT_KEY);
        Map<String, String> annotations =
                d.getSpec().getPodTemplate().getMetadata().getAnnotations();
        assertEquals("true", annotations.get("prometheus.io/scrape"));
        assertEquals(port, annotations.get("prometheus.io/port"));
        var containerPort =
                mainContainer(d).getPorts().stream()
                        .filter(p -> p.getName().equals("metrics"))
                        .findFirst()
                        .orElseThrow();
        assertEquals(Integer.parseInt(port), containerPort.getContainerPort());
        Map<?, ?> monitor = null;
        try (Reader r = Files.newBufferedReader(DIR.resolve("pod-monitor.yaml"))) {
            monitor = map(yaml().load(r), "pod-monitor.yaml");
        }
        Map<?, ?> spec = map(monitor.get("spec"), "spec");
        Map<?, ?> labels = map(map(spec.get("selector"), "selector").get("matchLabels"), "labels");
        // The operator labels every pod of a FlinkDeployment app=<its name>.
        assertEquals(d.getMetadata().getName(), labels.get("app"));
        Map<?, ?> endpoint = map(((List<?>) spec.get("podMetricsEndpoints")).get(0), "endpoint");
        assertEquals("metrics", endpoint.get("port"));
        assertEquals("/metrics", endpoint.get("path"));
    }

    @Test
    void flinkSettingsAreFlinkOptionsWithValidValues() throws Exception {
        Map<String, ConfigOption<?>> known = new LinkedHashMap<>();
        for (Class<?> c :
                List.of(
                        CheckpointingOptions.class,
                        HighAvailabilityOptions.class,
                        CoreOptions.class,
                        RestartStrategyOptions.class,
                        TaskManagerOptions.class)) {
            for (Field f : c.getFields()) {
                if (Modifier.isStatic(f.getModifiers())
                        && f.get(null) instanceof ConfigOption<?> o) {
                    known.put(o.key(), o);
                }
            }
        }
        Map<String, String> flink = deployment().getSpec().getFlinkConfiguration();
        Configuration conf = Configuration.fromMap(flink);
        // Flink's own Prometheus reporter: it listens on every interface of the pod, which a
        // Prometheus in another pod scrapes (the embedded clusters bind theirs to loopback).
        assertEquals(
                "org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
                flink.get(PrometheusEndpoint.FACTORY_KEY));
        assertTrue(Integer.parseInt(flink.get(PrometheusEndpoint.PORT_KEY)) > 0);
        for (String key : flink.keySet()) {
            if (key.startsWith("metrics.reporter.")) {
                assertTrue(
                        key.equals(PrometheusEndpoint.FACTORY_KEY)
                                || key.equals(PrometheusEndpoint.PORT_KEY),
                        key);
                continue;
            }
            ConfigOption<?> o = known.get(key);
            assertTrue(o != null, key + " is not a Flink 2.2 option (or only a deprecated name)");
            conf.get(o);
        }
    }

    @Test
    void jobOptionsPassTheJobsOwnParser() throws IOException {
        Path yaml = Files.writeString(tmp.resolve("job.yaml"), jobYaml());
        // What TfstreamJob.main does before it loads the schema and checks the Kafka cluster.
        JobConfig config = JobConfig.of(JobConfigFiles.read(yaml, List.of()));
        JobLauncher.flinkConfiguration(config);

        assertEquals(-1, config.get(JobOptions.PARALLELISM), "parallelism: the deployment's");
        assertTrue(config.checkpointDir().isEmpty(), "checkpoint directory: the cluster's");
        assertFalse(
                config.contains(JobOptions.CHECKPOINT_INTERVAL),
                "checkpoint interval: the cluster's");
        assertFalse(config.contains(JobOptions.S3_ENDPOINT), "s3.endpoint: the cluster's");
        assertTrue(config.get(JobOptions.SHARDS_PATH).startsWith("s3://"), "shards on S3");
        Duration timeout = config.get(JobOptions.OUTPUT_TRANSACTION_TIMEOUT);
        Duration interval =
                TimeUtils.parseDuration(
                        deployment()
                                .getSpec()
                                .getFlinkConfiguration()
                                .get("execution.checkpointing.interval"));
        assertTrue(timeout.compareTo(BROKER_MAX_TRANSACTION_TIMEOUT) <= 0, "broker's maximum");
        assertTrue(
                timeout.compareTo(interval.plus(NODE_LOSS_RECOVERY)) > 0,
                "output.transaction-timeout must outlast a checkpoint interval plus a pod's"
                        + " replacement after a node loss");
    }

    /** A file of the projected config volume: which ConfigMap and key it comes from. */
    private record Projected(String configMap, String key) {}

    @Test
    void configAndSchemaAreMountedWhereTheJobReadsThem() throws IOException {
        FlinkDeployment d = deployment();
        Volume volume = d.getSpec().getPodTemplate().getSpec().getVolumes().get(0);
        VolumeMount mount =
                mainContainer(d).getVolumeMounts().stream()
                        .filter(m -> m.getName().equals(volume.getName()))
                        .findFirst()
                        .orElseThrow();
        Map<String, Projected> files = new LinkedHashMap<>();
        for (VolumeProjection p : volume.getProjected().getSources()) {
            for (KeyToPath item : p.getConfigMap().getItems()) {
                files.put(
                        mount.getMountPath() + "/" + item.getPath(),
                        new Projected(p.getConfigMap().getName(), item.getKey()));
            }
        }
        String[] args = d.getSpec().getJob().getArgs();
        assertEquals("--config", args[0]);
        assertEquals(
                new Projected(
                        (String) map(configMapDoc().get("metadata"), "metadata").get("name"),
                        "job.yaml"),
                files.get(args[1]),
                args[1] + " among " + files);

        Path yaml = Files.writeString(tmp.resolve("job.yaml"), jobYaml());
        String schema =
                JobConfig.of(JobConfigFiles.read(yaml, List.of())).get(JobOptions.SCHEMA_PATH);
        Projected source = files.get(schema);
        assertTrue(source != null, schema + " among " + files);
        assertReadmeCreates(
                "create configmap " + source.configMap(), "--from-file=" + source.key());
    }

    @Test
    void s3CredentialsComeFromTheSecretTheReadmeCreates() throws IOException {
        Map<String, EnvVar> env =
                mainContainer(deployment()).getEnv().stream()
                        .collect(Collectors.toMap(EnvVar::getName, e -> e));
        for (String name : List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")) {
            var ref = env.get(name).getValueFrom().getSecretKeyRef();
            assertReadmeCreates(
                    "create secret generic " + ref.getName(), "--from-literal=" + ref.getKey());
        }
    }

    @Test
    void imageIsTheOfficialFlinkImageWithTheThinJarWhereTheDeploymentLooks() throws Exception {
        String dockerfile = Files.readString(DIR.resolve("Dockerfile"));
        String flinkVersion = rootPomProperty("flink.version");
        Matcher from = Pattern.compile("ARG FLINK_IMAGE=flink:(\\S+)").matcher(dockerfile);
        assertTrue(from.find(), "ARG FLINK_IMAGE=flink:<tag>");
        assertTrue(from.group(1).startsWith(flinkVersion + "-"), from.group(1));
        assertTrue(from.group(1).endsWith("-java17"), from.group(1));
        assertTrue(dockerfile.contains("/opt/flink/plugins/s3-fs-hadoop/"), "the S3 plugin");

        Matcher copy = Pattern.compile("(?m)^COPY .*?(\\S+) (\\S+)$").matcher(dockerfile);
        assertTrue(copy.find(), "COPY of the job jar");
        assertEquals("${JOB_JAR}", copy.group(1));
        Matcher jar = Pattern.compile("(?m)^ARG JOB_JAR=(\\S+)$").matcher(dockerfile);
        assertTrue(jar.find(), "ARG JOB_JAR=<the default line's thin jar>");
        assertEquals("job/target/" + thinJarName(), jar.group(1));
        assertTrue(
                dockerfile.contains("\nFROM ${FLINK_IMAGE}\nARG JOB_JAR\n"),
                "JOB_JAR in the stage");
        assertEquals("local://" + copy.group(2), deployment().getSpec().getJob().getJarURI());
    }

    /** README.md has {@code command} (with its continuation lines) with {@code option=...}. */
    private static void assertReadmeCreates(String command, String option) throws IOException {
        List<String> lines = Files.readAllLines(DIR.resolve("README.md"));
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).contains(command + " ")) {
                continue;
            }
            StringBuilder full = new StringBuilder(lines.get(i));
            while (full.toString().endsWith("\\") && ++i < lines.size()) {
                full.append(lines.get(i));
            }
            assertTrue(full.toString().contains(option + "="), full + ": " + option + "=...");
            return;
        }
        throw new AssertionError("README.md does not say " + command);
    }

    private static Container mainContainer(FlinkDeployment d) {
        return d.getSpec().getPodTemplate().getSpec().getContainers().stream()
                .filter(c -> c.getName().equals(MAIN_CONTAINER))
                .findFirst()
                .orElseThrow();
    }

    private static FlinkDeployment deployment() throws IOException {
        return new ObjectMapper().convertValue(checkableDeployment(), FlinkDeployment.class);
    }

    /** The deployment, without a flinkVersion the operator API on the classpath predates. */
    private static Map<String, Object> checkableDeployment() throws IOException {
        Map<String, Object> d = rawDeployment();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) d.get("spec");
        boolean known =
                Arrays.stream(FlinkVersion.values())
                        .anyMatch(v -> v.name().equals(spec.get("flinkVersion")));
        if (!known) {
            spec.remove("flinkVersion");
        }
        return d;
    }

    private static Map<String, Object> rawDeployment() throws IOException {
        try (Reader r = Files.newBufferedReader(DIR.resolve("flink-deployment.yaml"))) {
            return yaml().load(r);
        }
    }

    private static Map<?, ?> configMapDoc() throws IOException {
        try (Reader r = Files.newBufferedReader(DIR.resolve("job-config.yaml"))) {
            return map(yaml().load(r), "job-config.yaml");
        }
    }

    private static String jobYaml() throws IOException {
        return (String) map(configMapDoc().get("data"), "data").get("job.yaml");
    }

    private static List<Path> manifestFiles() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static String rootPomProperty(String name) throws Exception {
        Document pom =
                DocumentBuilderFactory.newInstance()
                        .newDocumentBuilder()
                        .parse(ROOT.resolve("pom.xml").toFile());
        // The project's own properties (the default Flink line's), not a profile's.
        org.w3c.dom.NodeList top = pom.getDocumentElement().getChildNodes();
        for (int i = 0; i < top.getLength(); i++) {
            if (top.item(i) instanceof org.w3c.dom.Element e
                    && e.getTagName().equals("properties")) {
                return e.getElementsByTagName(name).item(0).getTextContent().trim();
            }
        }
        throw new AssertionError("the root pom has no properties");
    }

    /** The output file of job/pom.xml's cluster-jar shade execution. */
    private static String thinJarName() throws Exception {
        Document pom =
                DocumentBuilderFactory.newInstance()
                        .newDocumentBuilder()
                        .parse(ROOT.resolve("job/pom.xml").toFile());
        NodeList executions = pom.getElementsByTagName("execution");
        for (int i = 0; i < executions.getLength(); i++) {
            Element e = (Element) executions.item(i);
            NodeList id = e.getElementsByTagName("id");
            if (id.getLength() > 0 && id.item(0).getTextContent().equals("cluster-jar")) {
                String out = e.getElementsByTagName("outputFile").item(0).getTextContent();
                return out.substring(out.lastIndexOf('/') + 1);
            }
        }
        throw new AssertionError("job/pom.xml has no cluster-jar execution");
    }

    private static Yaml yaml() {
        return new Yaml(new SafeConstructor(new LoaderOptions()));
    }

    static Map<?, ?> map(Object o, String what) {
        assertTrue(o instanceof Map<?, ?>, what + ": expected a mapping, got " + o);
        return (Map<?, ?>) o;
    }

    static List<?> list(Object o, String what) {
        assertTrue(o instanceof List<?>, what + ": expected a list, got " + o);
        return (List<?>) o;
    }
}
