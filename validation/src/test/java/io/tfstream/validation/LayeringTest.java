package io.tfstream.validation;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layering of the modules without Flink, read from their classes (this module sees all three):
 * {@code schema} ({@code io.tfstream.spec}) depends on none of {@code core}'s packages, and {@code
 * schema}, {@code core} and {@code validation} use nothing of Flink but its API annotations
 * ({@code @PublicEvolving} on the types the library's API shows), so that any JVM program can use
 * them.
 */
class LayeringTest {
    private static final String[] CORE = {
        "io.tfstream.parse..",
        "io.tfstream.tensor..",
        "io.tfstream.payload..",
        "io.tfstream.tfrecord..",
        "io.tfstream.convert..",
        "io.tfstream.shards..",
        "io.tfstream.sample..",
        "io.tfstream.text.."
    };

    private static final JavaClasses CLASSES =
            new ClassFileImporter()
                    // Main classes only: test classes of the test-jars share the packages.
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .withImportOption(l -> !l.contains("-tests.jar") && !l.contains("test-classes"))
                    .importPackages("io.tfstream");

    @Test
    void theSchemaModuleIsBelowTheCore() {
        noClasses()
                .that()
                .resideInAPackage("io.tfstream.spec..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(CORE)
                .check(CLASSES);
    }

    @Test
    void schemaCoreAndValidationUseNoFlink() {
        noClasses()
                .that()
                .resideInAnyPackage("io.tfstream.spec..", "io.tfstream.validation..")
                .or()
                .resideInAnyPackage(CORE)
                .should()
                .dependOnClassesThat(
                        JavaClass.Predicates.resideInAPackage("org.apache.flink..")
                                .and(
                                        com.tngtech.archunit.base.DescribedPredicate.not(
                                                JavaClass.Predicates.resideInAPackage(
                                                        "org.apache.flink.annotation"))))
                .check(CLASSES);
    }
}
