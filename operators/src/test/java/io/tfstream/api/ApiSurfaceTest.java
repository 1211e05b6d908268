package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.Public;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.Test;

/**
 * The public API is {@code io.tfstream.api} and its subpackages, every class there {@link
 * PublicEvolving}, and no public signature of it (methods, constructors, fields, supertypes,
 * generic arguments included) names a tfstream type that is not part of it: a type of the API
 * packages or one annotated {@link PublicEvolving} or {@link Public} elsewhere (the core's {@code
 * ParseLimits}, {@code Compression}, ...). Every published type is in a published package, no
 * public member of the API is {@link Internal} (the job is built from the API alone), and the
 * example job imports published types only.
 */
class ApiSurfaceTest {
    /**
     * The packages whose {@link PublicEvolving} and {@link Public} types are the published API,
     * each with why it is published. docs/library.md lists the same.
     */
    static final Map<String, String> PUBLISHED_PACKAGES =
            Map.ofEntries(
                    Map.entry("io.tfstream.api", "the DataStream API: sources, steps, serializers"),
                    Map.entry("io.tfstream.api.model", "the values the API's steps take and emit"),
                    Map.entry("io.tfstream.api.options", "the stages' options, one declaration"),
                    Map.entry("io.tfstream.sql", "the SQL formats' options"),
                    Map.entry("io.tfstream.tensor", "a payload's tensors, decoded"),
                    Map.entry("io.tfstream.payload", "EncodedTensorBatch: ParseResult#batches()"),
                    Map.entry("io.tfstream.tfrecord", "Compression of shards and files"),
                    Map.entry("io.tfstream.convert", "InputFormat: the values of source.format"),
                    Map.entry("io.tfstream.parse", "ParseLimits: TfstreamParseBuilder#setLimits"),
                    Map.entry("io.tfstream.shards", "ShardLayout: setMetadataLayout"),
                    Map.entry("io.tfstream.spec", "ParseSpec, DType: what a schema derives"),
                    Map.entry("io.tfstream.stats", "TFDV's statistics, computed without Flink"),
                    Map.entry("io.tfstream.validation", "LintFinding: TfstreamValidation"),
                    Map.entry(
                            "io.tfstream.operators.shards.store",
                            "where shards go: TfRecordShardsBuilder#setStoreFactory, kept beside"
                                    + " the stores"),
                    Map.entry(
                            "io.tfstream.operators.compat",
                            "LineSink: the API sinks' supertype on each Flink line"));

    private static final JavaClasses CLASSES =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .withImportOption(l -> !l.contains("-tests.jar") && !l.contains("test-classes"))
                    .importPackages("io.tfstream");

    private static boolean inApiPackage(JavaClass c) {
        return c.getPackageName().equals("io.tfstream.api")
                || c.getPackageName().startsWith("io.tfstream.api.");
    }

    private static boolean published(JavaClass c) {
        JavaClass top = c;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top.isAnnotatedWith(PublicEvolving.class) || top.isAnnotatedWith(Public.class);
    }

    /** The API's classes users see: public, in the API packages. */
    private static List<JavaClass> apiClasses() {
        List<JavaClass> api = new ArrayList<>();
        for (JavaClass c : CLASSES) {
            if (inApiPackage(c) && c.getModifiers().contains(JavaModifier.PUBLIC)) {
                api.add(c);
            }
        }
        return api;
    }

    @Test
    void everyPublicClassOfTheApiIsPublicEvolving() {
        Set<String> missing = new TreeSet<>();
        for (JavaClass c : apiClasses()) {
            if (!published(c)) {
                missing.add(c.getName());
            }
        }
        assertEquals(Set.of(), missing);
        assertTrue(apiClasses().size() > 40, "the API packages were read");
    }

    /** The operators behind the API say what they are: internal, or published where they are. */
    @Test
    void everyOtherPublicClassOfTheModuleIsInternalOrPublished() {
        Set<String> unmarked = new TreeSet<>();
        for (JavaClass c : CLASSES) {
            if (c.getPackageName().startsWith("io.tfstream.operators")
                    && c.getModifiers().contains(JavaModifier.PUBLIC)
                    && c.getEnclosingClass().isEmpty()
                    && !c.isAnnotatedWith(Internal.class)
                    && !published(c)) {
                unmarked.add(c.getName());
            }
        }
        assertEquals(Set.of(), unmarked);
    }

    @Test
    void everyPublishedTypeIsInAPublishedPackage() {
        Set<String> elsewhere = new TreeSet<>();
        for (JavaClass c : CLASSES) {
            if ((c.isAnnotatedWith(PublicEvolving.class) || c.isAnnotatedWith(Public.class))
                    && !PUBLISHED_PACKAGES.containsKey(c.getPackageName())) {
                elsewhere.add(c.getName());
            }
        }
        assertEquals(Set.of(), elsewhere);
    }

    /** The API is all a job needs: nothing in it is there for tfstream run alone. */
    @Test
    void noPublicMemberOfTheApiIsInternal() {
        Set<String> internal = new TreeSet<>();
        for (JavaClass c : apiClasses()) {
            for (JavaMember m : c.getMembers()) {
                if (visible(m) && m.isAnnotatedWith(Internal.class)) {
                    internal.add(c.getSimpleName() + "#" + m.getName());
                }
            }
        }
        assertEquals(Set.of(), internal);
    }

    /** examples/custom-job, a job of its own, imports published tfstream types only. */
    @Test
    void theExampleJobImportsPublishedTypesOnly() throws IOException {
        Path sources = Path.of("..", "examples", "custom-job", "src", "main", "java");
        Set<String> unpublished = new TreeSet<>();
        int imports = 0;
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (line.startsWith("import io.tfstream.")) {
                        imports++;
                        String name = line.substring("import ".length(), line.length() - 1);
                        JavaClass c = CLASSES.get(name);
                        if (!published(c) || !PUBLISHED_PACKAGES.containsKey(c.getPackageName())) {
                            unpublished.add(name);
                        }
                    }
                }
            }
        }
        assertEquals(Set.of(), unpublished);
        assertTrue(imports > 5, imports + " tfstream imports read");
    }

    @Test
    void noPublicSignatureOfTheApiNamesAnInternalType() {
        Set<String> leaks = new TreeSet<>();
        for (JavaClass c : apiClasses()) {
            List<JavaType> supers = new ArrayList<>();
            c.getSuperclass().ifPresent(supers::add);
            supers.addAll(c.getInterfaces());
            for (JavaType t : supers) {
                check(c.getName() + " extends", t, leaks);
            }
            for (JavaMember m : c.getMembers()) {
                if (!visible(m) || m.isAnnotatedWith(Internal.class)) {
                    continue;
                }
                String where = c.getSimpleName() + "#" + m.getName();
                if (m instanceof JavaField f) {
                    check(where, f.getType(), leaks);
                } else if (m instanceof JavaCodeUnit u) {
                    check(where, u.getReturnType(), leaks);
                    for (JavaType p : u.getParameterTypes()) {
                        check(where, p, leaks);
                    }
                }
            }
        }
        assertEquals(Set.of(), leaks, "tfstream types in the API that are not part of it");
    }

    private static boolean visible(JavaMember m) {
        return m.getModifiers().contains(JavaModifier.PUBLIC)
                || (m.getModifiers().contains(JavaModifier.PROTECTED)
                        && !m.getOwner().getModifiers().contains(JavaModifier.FINAL));
    }

    private static void check(String where, JavaType t, Set<String> leaks) {
        for (JavaClass raw : t.getAllInvolvedRawTypes()) {
            JavaClass base = raw.isArray() ? raw.getBaseComponentType() : raw;
            if (base.getPackageName().startsWith("io.tfstream")
                    && !inApiPackage(base)
                    && !published(base)) {
                leaks.add(where + ": " + base.getName());
            }
        }
    }
}
