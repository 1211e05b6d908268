package io.tfstream.job.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobConfigFiles;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobOptions;
import io.tfstream.job.PrometheusEndpoint;
import io.tfstream.job.TfstreamJob;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.flink.client.cli.ArtifactFetchOptions;
import org.apache.flink.configuration.BlobServerOptions;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
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
 * and the README agree with each other. And the hardening: every container of every pod template
 * runs non-root with a read-only root file system and no capabilities, every directory Flink writes
 * is an {@code emptyDir}, S3 keys are files of a mounted Secret and never environment variables or
 * settings, and the {@code NetworkPolicy} admits the deployment's own ports among its pods, the
 * REST port from the operator only and the metrics port from Prometheus only.
 */
class KubernetesManifestsTest {
    private static final Path ROOT = Path.of("..");
    private static final Path DIR = ROOT.resolve("deploy/kubernetes");
    private static final String MAIN_CONTAINER = "flink-main-container";

    /** The flink user and group of the official Flink image. */
    private static final long FLINK_UID = 9999;

    /** Where Flink mounts its own configuration ConfigMap (kubernetes.flink.conf.dir). */
    private static final String FLINK_CONF_DIR = "/opt/flink/conf";

    /** Flink's S3 plugin's own settings (Hadoop's S3A), which no Flink option class declares. */
    private static final String S3_PLUGIN_PROVIDER = "fs.s3a.aws.credentials.provider";

    private static final Set<String> S3_PLUGIN_KEYS =
            Set.of(S3_PLUGIN_PROVIDER, "s3.endpoint", "s3.path.style.access");

    /**
     * The AWS SDK v1 provider (bundled by the S3 plugin) that reads the shared credentials file
     * named by {@code AWS_CREDENTIAL_PROFILES_FILE}.
     */
    private static final String PROFILE_FILE_PROVIDER =
            "com.amazonaws.auth.profile.ProfileCredentialsProvider";

    /** Names of settings, variables and Secret keys that hold an S3 key (not a file's path). */
    private static final Pattern S3_KEY_NAME =
            Pattern.compile("(?i).*(access|secret)[._-]?key.*|.*session[._-]?token.*");

    /** The label the operator gives every pod of a FlinkDeployment: app=<its name>. */
    private static final String APP_LABEL = "app";

    /** The label Kubernetes gives every namespace: its name. */
    private static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

    /** The pod label of the operator's Helm chart and of the Prometheus Operator's Prometheus. */
    private static final String NAME_LABEL = "app.kubernetes.io/name";

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
                List.of("ConfigMap", "FlinkDeployment", "NetworkPolicy", "PodMonitor"),
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
                        TaskManagerOptions.class,
                        JobManagerOptions.class,
                        BlobServerOptions.class,
                        NettyShuffleEnvironmentOptions.class,
                        RestOptions.class,
                        WebOptions.class,
                        ArtifactFetchOptions.class)) {
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
            if (S3_PLUGIN_KEYS.contains(key)) {
                continue;
            }
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
        Volume volume =
                d.getSpec().getPodTemplate().getSpec().getVolumes().stream()
                        .filter(v -> v.getProjected() != null)
                        .findFirst()
                        .orElseThrow();
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
    void podsRunAsTheImagesNonRootUserWithAReadOnlyRootAndNoCapabilities() throws IOException {
        FlinkDeployment d = deployment();
        mainContainer(d);
        PodSecurityContext pod = d.getSpec().getPodTemplate().getSpec().getSecurityContext();
        assertTrue(pod != null, "spec.podTemplate.spec.securityContext");
        assertEquals(Boolean.TRUE, pod.getRunAsNonRoot(), "runAsNonRoot");
        Matcher user =
                Pattern.compile("(?m)^USER (\\d+):(\\d+)$")
                        .matcher(Files.readString(DIR.resolve("Dockerfile")));
        assertTrue(user.find(), "the Dockerfile's USER uid:gid");
        assertEquals(FLINK_UID, Long.parseLong(user.group(1)), "the official image's flink user");
        assertEquals(FLINK_UID, Long.parseLong(user.group(2)), "the official image's flink group");
        assertEquals(FLINK_UID, pod.getRunAsUser(), "runAsUser");
        assertEquals(FLINK_UID, pod.getRunAsGroup(), "runAsGroup");
        assertEquals(FLINK_UID, pod.getFsGroup(), "fsGroup");
        assertTrue(pod.getSeccompProfile() != null, "seccompProfile");
        assertEquals("RuntimeDefault", pod.getSeccompProfile().getType(), "seccompProfile");

        for (Map.Entry<String, PodTemplateSpec> t : podTemplates(d).entrySet()) {
            PodSpec spec = t.getValue().getSpec();
            // A JobManager's or TaskManagers' template may leave the pod's own context to
            // spec.podTemplate, but not weaken it.
            PodSecurityContext own = spec.getSecurityContext();
            if (own != null) {
                assertFalse(Boolean.FALSE.equals(own.getRunAsNonRoot()), t.getKey());
                assertFalse(Long.valueOf(0).equals(own.getRunAsUser()), t.getKey());
            }
            for (Boolean host :
                    Arrays.asList(spec.getHostNetwork(), spec.getHostPID(), spec.getHostIPC())) {
                assertFalse(Boolean.TRUE.equals(host), t.getKey() + ": a host namespace");
            }
            for (Container c : containers(spec)) {
                String at = t.getKey() + ", container " + c.getName();
                SecurityContext sc = c.getSecurityContext();
                assertTrue(sc != null, at + ": securityContext");
                assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem(), at + ": read-only root");
                assertEquals(
                        Boolean.FALSE,
                        sc.getAllowPrivilegeEscalation(),
                        at + ": allowPrivilegeEscalation");
                assertFalse(Boolean.TRUE.equals(sc.getPrivileged()), at + ": privileged");
                assertTrue(sc.getCapabilities() != null, at + ": capabilities");
                assertTrue(
                        orEmpty(sc.getCapabilities().getDrop()).contains("ALL"),
                        at + ": capabilities.drop must hold ALL");
                assertEquals(
                        List.of(), orEmpty(sc.getCapabilities().getAdd()), at + ": capabilities");
                assertFalse(Boolean.FALSE.equals(sc.getRunAsNonRoot()), at + ": runAsNonRoot");
                assertFalse(Long.valueOf(0).equals(sc.getRunAsUser()), at + ": runAsUser 0");
            }
        }
    }

    /**
     * The root file system is read-only: every directory Flink writes (flinkConfiguration's, or
     * where each goes unset) must be on a writable emptyDir of the main container.
     */
    @Test
    void everyDirectoryFlinkWritesIsAWritableEmptyDir() throws IOException {
        FlinkDeployment d = deployment();
        Map<String, Volume> volumes = volumes(d.getSpec().getPodTemplate().getSpec());
        Container main = mainContainer(d);
        for (String dir : directoriesFlinkWrites(d.getSpec().getFlinkConfiguration())) {
            assertTrue(dir.startsWith("/"), dir + ": expected an absolute local path");
            VolumeMount mount =
                    orEmpty(main.getVolumeMounts()).stream()
                            .filter(m -> under(dir, m.getMountPath()))
                            .max(Comparator.comparingInt(m -> m.getMountPath().length()))
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    dir
                                                            + " is on the read-only root file"
                                                            + " system: mount an emptyDir there"));
            Volume volume = volumes.get(mount.getName());
            assertTrue(
                    volume != null && volume.getEmptyDir() != null,
                    dir + ": volume " + mount.getName() + " is not an emptyDir");
            assertFalse(Boolean.TRUE.equals(mount.getReadOnly()), dir + ": mounted read-only");
        }
        // Flink mounts its configuration ConfigMap there itself: a second volume would clash.
        for (Map.Entry<String, PodTemplateSpec> t : podTemplates(d).entrySet()) {
            for (Container c : containers(t.getValue().getSpec())) {
                for (VolumeMount m : orEmpty(c.getVolumeMounts())) {
                    assertFalse(
                            under(m.getMountPath(), FLINK_CONF_DIR),
                            t.getKey() + ", " + c.getName() + ": a volume at " + FLINK_CONF_DIR);
                }
            }
        }
    }

    @Test
    void noEnvironmentVariableOrSettingCarriesAnS3Key() throws IOException {
        FlinkDeployment d = deployment();
        Set<String> secrets = new LinkedHashSet<>();
        for (String path : s3CredentialFiles(d)) {
            secrets.add(secretFile(d, path).volume().getSecret().getSecretName());
        }
        for (Map.Entry<String, PodTemplateSpec> t : podTemplates(d).entrySet()) {
            for (Container c : containers(t.getValue().getSpec())) {
                String at = t.getKey() + ", container " + c.getName();
                for (EnvVar e : orEmpty(c.getEnv())) {
                    assertFalse(
                            S3_KEY_NAME.matcher(e.getName()).matches(), at + ": " + e.getName());
                    SecretKeySelector ref =
                            e.getValueFrom() == null ? null : e.getValueFrom().getSecretKeyRef();
                    if (ref != null) {
                        assertFalse(
                                S3_KEY_NAME.matcher(ref.getKey()).matches()
                                        || secrets.contains(ref.getName()),
                                at + ": " + e.getName() + " from Secret " + ref.getName());
                    }
                }
                for (EnvFromSource e : orEmpty(c.getEnvFrom())) {
                    assertFalse(
                            e.getSecretRef() != null
                                    && secrets.contains(e.getSecretRef().getName()),
                            at + ": envFrom Secret " + secrets);
                }
            }
        }
        // Nor in the cluster's configuration (a ConfigMap, shown by the web UI; also
        // containerized.*.env.* and kubernetes.env.secretKeyRef), nor in the job's options.
        for (String key : d.getSpec().getFlinkConfiguration().keySet()) {
            assertFalse(S3_KEY_NAME.matcher(key).matches(), "flinkConfiguration: " + key);
        }
        Path yaml = Files.writeString(tmp.resolve("job.yaml"), jobYaml());
        for (String key : JobConfigFiles.read(yaml, List.of()).keySet()) {
            assertFalse(S3_KEY_NAME.matcher(key).matches(), "job.yaml: " + key);
        }
    }

    /**
     * Both S3 readers take their keys from files of a Secret mounted read-only: the shard writer
     * from s3.credentials-file, Flink's S3 plugin from the AWS credentials file its provider reads.
     */
    @Test
    void s3CredentialsAreReadOnlyFilesOfTheSecretTheReadmeCreates() throws Exception {
        FlinkDeployment d = deployment();
        PodSecurityContext pod = d.getSpec().getPodTemplate().getSpec().getSecurityContext();
        List<String> files = s3CredentialFiles(d);
        assertEquals(2, files.size(), files.toString());
        for (String path : files) {
            SecretFile f = secretFile(d, path);
            assertEquals(Boolean.TRUE, f.mount().getReadOnly(), path + ": mounted read-only");
            List<Integer> modes = new ArrayList<>();
            modes.add(f.volume().getSecret().getDefaultMode());
            for (KeyToPath item : orEmpty(f.volume().getSecret().getItems())) {
                if (item.getMode() != null) {
                    modes.add(item.getMode());
                }
            }
            for (Integer mode : modes) {
                assertTrue(mode != null, path + ": defaultMode (the API's default is 0644)");
                assertEquals(
                        0,
                        mode & ~0440,
                        path + ": mode 0" + Integer.toOctalString(mode) + " beyond 0440");
                // Secret files belong to root; the flink user reads them through fsGroup.
                assertTrue(
                        (mode & 0040) != 0 && pod.getFsGroup() != null,
                        path + ": unreadable for the flink user without group read and fsGroup");
            }
            assertReadmeCreates(
                    "create secret generic " + f.volume().getSecret().getSecretName(),
                    "--from-file=" + f.key());
        }
        // The plugin's provider reads the file AWS_CREDENTIAL_PROFILES_FILE names; Hadoop's S3A
        // creates it through its public no-argument constructor.
        String provider = d.getSpec().getFlinkConfiguration().get(S3_PLUGIN_PROVIDER);
        assertEquals(PROFILE_FILE_PROVIDER, provider, S3_PLUGIN_PROVIDER);
        ClassLoader loader = KubernetesManifestsTest.class.getClassLoader();
        Class<?> api = Class.forName("com.amazonaws.auth.AWSCredentialsProvider", false, loader);
        Class<?> impl = Class.forName(provider, false, loader);
        assertTrue(api.isAssignableFrom(impl), provider + " in the S3 plugin");
        impl.getConstructor();
    }

    @Test
    void networkPolicyAdmitsTheDeploymentsPortsTheOperatorAndPrometheusOnly() throws IOException {
        FlinkDeployment d = deployment();
        Map<String, String> flink = d.getSpec().getFlinkConfiguration();
        String name = d.getMetadata().getName();
        Map<?, ?> policy;
        try (Reader r = Files.newBufferedReader(DIR.resolve("network-policy.yaml"))) {
            policy = map(yaml().load(r), "network-policy.yaml");
        }
        assertEquals("networking.k8s.io/v1", policy.get("apiVersion"));
        assertEquals("NetworkPolicy", policy.get("kind"));
        Map<?, ?> spec = map(policy.get("spec"), "spec");
        Map<?, ?> ownPods = Map.of("matchLabels", Map.of(APP_LABEL, name));
        assertEquals(ownPods, spec.get("podSelector"), "the deployment's pods");
        assertTrue(list(spec.get("policyTypes"), "policyTypes").contains("Ingress"));

        // Every port a rule admits, and from whom.
        Map<Integer, Set<Object>> peers = new LinkedHashMap<>();
        for (Object o : list(spec.get("ingress"), "ingress")) {
            Map<?, ?> rule = map(o, "ingress rule");
            // Without from (or ports) a rule admits every source (or every port).
            List<?> from = list(rule.get("from"), "from of " + rule);
            List<?> ports = list(rule.get("ports"), "ports of " + rule);
            assertFalse(from.isEmpty() || ports.isEmpty(), "every source or port: " + rule);
            for (Object p : ports) {
                Map<?, ?> port = map(p, "port");
                assertEquals("TCP", port.get("protocol"), port.toString());
                assertFalse(port.containsKey("endPort"), port.toString());
                assertTrue(port.get("port") instanceof Integer, "a port number: " + port);
                peers.computeIfAbsent((Integer) port.get("port"), k -> new LinkedHashSet<>())
                        .addAll(from);
            }
        }

        // Among the deployment's own pods (same namespace): the fixed ports of its processes.
        Map<?, ?> ownPeer = Map.of("podSelector", ownPods);
        Set<Integer> expected = new LinkedHashSet<>();
        for (String key :
                List.of(
                        JobManagerOptions.PORT.key(),
                        HighAvailabilityOptions.HA_JOB_MANAGER_PORT_RANGE.key(),
                        BlobServerOptions.PORT.key(),
                        TaskManagerOptions.RPC_PORT.key(),
                        NettyShuffleEnvironmentOptions.DATA_PORT.key())) {
            int port = fixedPort(flink, key);
            expected.add(port);
            assertEquals(Set.of(ownPeer), peers.get(port), key + " " + port);
        }
        for (String key : flink.keySet()) {
            assertFalse(key.endsWith("bind-port"), key + ": the policy admits the ports above");
        }
        // The REST port from the operator only, the metrics port from Prometheus only: each a
        // namespace and a pod selector in one peer (both must match).
        int rest = fixedPort(flink, RestOptions.PORT.key());
        int metrics = fixedPort(flink, PrometheusEndpoint.PORT_KEY);
        expected.add(rest);
        expected.add(metrics);
        Map<?, ?> operator = onlyPeer(peers, rest, "the REST port");
        assertEquals("flink-kubernetes-operator", podLabel(operator), "the operator's pod label");
        Map<?, ?> prometheus = onlyPeer(peers, metrics, "the metrics port");
        assertEquals("prometheus", podLabel(prometheus), "Prometheus' pod label");
        assertEquals(expected, peers.keySet(), "the ports the policy admits");

        // The selectors are parameters: README.md documents each.
        String readme = Files.readString(DIR.resolve("README.md"));
        for (Map<?, ?> peer : List.of(operator, prometheus)) {
            for (String selector : List.of("namespaceSelector", "podSelector")) {
                for (Map.Entry<?, ?> label : matchLabels(peer, selector).entrySet()) {
                    String documented = label.getKey() + ": " + label.getValue();
                    assertTrue(readme.contains(documented), "README.md: " + documented);
                }
            }
        }
    }

    /** The single peer admitted on {@code port}: a namespace's pods of one label. */
    private static Map<?, ?> onlyPeer(Map<Integer, Set<Object>> peers, int port, String what) {
        Set<Object> from = peers.get(port);
        assertTrue(from != null && from.size() == 1, what + " " + port + " from " + from);
        Map<?, ?> peer = map(from.iterator().next(), what);
        assertEquals(Set.of("namespaceSelector", "podSelector"), peer.keySet(), what);
        assertEquals(
                Set.of(NAMESPACE_NAME_LABEL),
                matchLabels(peer, "namespaceSelector").keySet(),
                what + ": a namespace by its name");
        return peer;
    }

    private static Object podLabel(Map<?, ?> peer) {
        Map<?, ?> labels = matchLabels(peer, "podSelector");
        assertEquals(Set.of(NAME_LABEL), labels.keySet(), "pod selector " + labels);
        return labels.get(NAME_LABEL);
    }

    private static Map<?, ?> matchLabels(Map<?, ?> peer, String selector) {
        Map<?, ?> s = map(peer.get(selector), selector);
        assertEquals(Set.of("matchLabels"), s.keySet(), selector);
        Map<?, ?> labels = map(s.get("matchLabels"), selector + ".matchLabels");
        assertFalse(labels.isEmpty(), selector + " selects everything");
        return labels;
    }

    /** A port a Flink process listens on: set, and fixed (not 0, not a range). */
    private static int fixedPort(Map<String, String> flink, String key) {
        String value = flink.get(key);
        assertTrue(value != null, key + ": unset, the port may be random");
        int port = Integer.parseInt(value.trim());
        assertTrue(port > 0 && port < 65536, key + ": " + value);
        return port;
    }

    /** The S3 keys' files: s3.credentials-file of job.yaml, and the S3 plugin's profile file. */
    private List<String> s3CredentialFiles(FlinkDeployment d) throws IOException {
        Path yaml = Files.writeString(tmp.resolve("job.yaml"), jobYaml());
        JobConfig config = JobConfig.of(JobConfigFiles.read(yaml, List.of()));
        assertTrue(
                config.contains(JobOptions.S3_CREDENTIALS_FILE),
                "s3.credentials-file: the shard writer's keys");
        Map<String, String> env = new HashMap<>();
        for (EnvVar e : orEmpty(mainContainer(d).getEnv())) {
            env.put(e.getName(), e.getValue());
        }
        String profiles = env.get("AWS_CREDENTIAL_PROFILES_FILE");
        assertTrue(profiles != null, "AWS_CREDENTIAL_PROFILES_FILE: the S3 plugin's keys");
        assertEquals(profiles, env.get("AWS_SHARED_CREDENTIALS_FILE"), "the AWS SDK v2's name");
        return List.of(config.get(JobOptions.S3_CREDENTIALS_FILE), profiles);
    }

    /** A file of a Secret volume: the volume, its mount on the main container, and its key. */
    private record SecretFile(Volume volume, VolumeMount mount, String key) {}

    private static SecretFile secretFile(FlinkDeployment d, String path) {
        VolumeMount mount =
                orEmpty(mainContainer(d).getVolumeMounts()).stream()
                        .filter(m -> path.startsWith(m.getMountPath() + "/"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(path + " is on no volume"));
        assertTrue(
                mount.getSubPath() == null || mount.getSubPath().isEmpty(),
                path + ": a subPath mount");
        Volume volume = volumes(d.getSpec().getPodTemplate().getSpec()).get(mount.getName());
        assertTrue(
                volume != null && volume.getSecret() != null,
                path + ": " + mount.getName() + " is not a Secret volume");
        String file = path.substring(mount.getMountPath().length() + 1);
        List<KeyToPath> items = orEmpty(volume.getSecret().getItems());
        String key =
                items.isEmpty()
                        ? file
                        : items.stream()
                                .filter(i -> i.getPath().equals(file))
                                .map(KeyToPath::getKey)
                                .findFirst()
                                .orElseThrow(() -> new AssertionError(path + ": no such item"));
        return new SecretFile(volume, mount, key);
    }

    /**
     * The local directories Flink writes on a pod: those flinkConfiguration sets, else where each
     * goes unset (the JVM's java.io.tmpdir is /tmp in the official image).
     */
    private static List<String> directoriesFlinkWrites(Map<String, String> flink) {
        List<String> dirs = new ArrayList<>();
        dirs.add("/tmp");
        dirs.addAll(paths(flink.getOrDefault(CoreOptions.TMP_DIRS.key(), "/tmp")));
        dirs.add(flink.getOrDefault(CoreOptions.FLINK_LOG_DIR.key(), "/opt/flink/log"));
        dirs.add(flink.getOrDefault(CoreOptions.FLINK_PID_DIR.key(), "/tmp"));
        String web = flink.getOrDefault(WebOptions.TMP_DIR.key(), "/tmp");
        dirs.add(web);
        dirs.add(flink.getOrDefault(WebOptions.UPLOAD_DIR.key(), web));
        dirs.add(
                flink.getOrDefault(
                        ArtifactFetchOptions.BASE_DIR.key(),
                        ArtifactFetchOptions.BASE_DIR.defaultValue()));
        // Unset, these are under io.tmp.dirs.
        for (String key :
                List.of(
                        BlobServerOptions.STORAGE_DIRECTORY.key(),
                        "state.backend.rocksdb.localdir",
                        "taskmanager.state.local.root-dirs",
                        "process.working-dir",
                        "process.jobmanager.working-dir",
                        "process.taskmanager.working-dir",
                        "kubernetes.flink.log.dir")) {
            if (flink.containsKey(key)) {
                dirs.addAll(paths(flink.get(key)));
            }
        }
        return dirs;
    }

    private static List<String> paths(String value) {
        return Arrays.stream(value.split("[,:]"))
                .map(String::trim)
                .filter(p -> !p.isEmpty())
                .toList();
    }

    /** Whether {@code path} is {@code dir} or below it. */
    private static boolean under(String path, String dir) {
        String d = dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir;
        return path.equals(d) || path.startsWith(d + "/");
    }

    /** Every pod template: the pods' own, and the JobManager's and TaskManagers' if set. */
    private static Map<String, PodTemplateSpec> podTemplates(FlinkDeployment d) {
        Map<String, PodTemplateSpec> t = new LinkedHashMap<>();
        t.put("spec.podTemplate", d.getSpec().getPodTemplate());
        if (d.getSpec().getJobManager().getPodTemplate() != null) {
            t.put("spec.jobManager.podTemplate", d.getSpec().getJobManager().getPodTemplate());
        }
        if (d.getSpec().getTaskManager().getPodTemplate() != null) {
            t.put("spec.taskManager.podTemplate", d.getSpec().getTaskManager().getPodTemplate());
        }
        return t;
    }

    /** The containers and init containers of a pod. */
    private static List<Container> containers(PodSpec spec) {
        List<Container> all = new ArrayList<>(orEmpty(spec.getContainers()));
        all.addAll(orEmpty(spec.getInitContainers()));
        return all;
    }

    private static Map<String, Volume> volumes(PodSpec spec) {
        Map<String, Volume> byName = new LinkedHashMap<>();
        for (Volume v : orEmpty(spec.getVolumes())) {
            byName.put(v.getName(), v);
        }
        return byName;
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
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
