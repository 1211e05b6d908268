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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.Public;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.Test;

/**
 * The public API is {@code io.tfstream.api} and its subpackages, every class there {@link
 * PublicEvolving}, and no public signature of it (methods, constructors, fields, supertypes,
 * generic arguments included) names a tfstream type that is not part of it: a type of the API
 * packages or one annotated {@link PublicEvolving} or {@link Public} elsewhere (the core's {@code
 * ParseLimits}, {@code Compression}, ...). Members annotated {@link Internal} are left out: they
 * exist for {@code tfstream run}, not for library users.
 */
class ApiSurfaceTest {
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
