package dev.mcpfusion.samples.billing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DESIGN §2's direction rule, enforced: annotations ← processor; annotations ← core ← testing;
 * and in a connector, tools → presenters → models → core, never backwards.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.mcpfusion");
  }

  @Test
  void annotationsDependOnNothingButTheJdk() {
    noClasses().that().resideInAPackage("dev.mcpfusion.annotation..")
        .should().dependOnClassesThat().resideOutsideOfPackages("dev.mcpfusion.annotation..", "java..")
        .check(classes);
  }

  @Test
  void processorNeverNeedsTheRuntime() {
    noClasses().that().resideInAPackage("dev.mcpfusion.processor..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.mcpfusion.core..", "dev.mcpfusion.testing..",
            "io.modelcontextprotocol..", "tools.jackson..", "org.hibernate..")
        .check(classes);
  }

  @Test
  void coreNeverImportsTestingOrOpenTelemetry() {
    noClasses().that().resideInAPackage("dev.mcpfusion.core..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.mcpfusion.testing..", "dev.mcpfusion.otel..",
            "io.opentelemetry..", "dev.mcpfusion.processor..", "dev.mcpfusion.samples..")
        .check(classes);
  }

  @Test
  void testingSitsOnCoreOnly() {
    noClasses().that().resideInAPackage("dev.mcpfusion.testing..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.mcpfusion.processor..", "dev.mcpfusion.otel..",
            "dev.mcpfusion.samples..")
        .check(classes);
  }

  @Test
  void modelsKnowNeitherPresentersNorTools() {
    noClasses().that().resideInAPackage("..samples.billing.model..")
        .should().dependOnClassesThat().resideInAnyPackage("..samples.billing.presenter..",
            "..samples.billing.tools..", "..samples.billing.store..")
        .check(classes);
  }

  @Test
  void presentersKnowNoTools() {
    noClasses().that().resideInAPackage("..samples.billing.presenter..")
        .should().dependOnClassesThat().resideInAnyPackage("..samples.billing.tools..", "..samples.billing.store..")
        .check(classes);
  }
}
