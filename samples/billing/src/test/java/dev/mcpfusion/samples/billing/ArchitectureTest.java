package dev.mcpfusion.samples.billing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The direction rule inside a connector: tools → presenters → models → core, never backwards, so a
 * model cannot reach a view it is shown through and a view cannot call an action.
 * The rule between the framework's own modules is tested in framework-tests.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.mcpfusion.samples.billing");
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
