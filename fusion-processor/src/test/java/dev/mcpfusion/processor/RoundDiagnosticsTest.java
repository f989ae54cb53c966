package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** What the round handling reports: leftovers, write failures, processor bugs, wrong targets. */
class RoundDiagnosticsTest {

  @Test
  void presenterWhoseModelNeverAppearsIsReportedAtTheEnd() {
    JavaFileObject view = source("shop.GhostView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Ghost.class)",
        "public record GhostView(String id) {}");
    Compilation c = Fixtures.compile(view);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/UnresolvedType] GhostView was not processed:")
        .inFile(view).onLineContaining("public record GhostView");
    assertThat(c).hadErrorContaining("so shop.GhostView_Presenter was not generated.");
  }

  @Test
  void routerWhoseParameterTypeNeverAppearsNamesIt() {
    JavaFileObject router = source("shop.GhostTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"ghost\")",
        "public class GhostTools {",
        "  @Query(description = \"Find\")",
        "  public int find(Phantom filter) { return 0; }",
        "}");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/UnresolvedType] GhostTools was not processed:"
        + " Phantom still does not exist after the last round, so shop.GhostTools_Fusion was not"
        + " generated.").inFile(router).onLineContaining("public class GhostTools");
  }

  @Test
  void twoRoutersGeneratingOneClassNameReportTheSecondWrite() {
    JavaFileObject nested = source("shop.Outer",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public class Outer {",
        "  @Router(\"nested\")",
        "  public static class Inner {",
        "    @Query(description = \"Ping\")",
        "    public int ping() { return 0; }",
        "  }",
        "}");
    JavaFileObject flat = source("shop.Outer_Inner",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"flat\")",
        "public class Outer_Inner {",
        "  @Query(description = \"Pong\")",
        "  public int pong() { return 0; }",
        "}");
    Compilation c = Fixtures.compile(nested, flat);
    assertThat(c).hadErrorContaining("[fusion/GenerationFailed] shop.Outer_Inner_Fusion could not"
        + " be written:");
  }

  @Test
  void aProcessorBugIsReportedOnTheTypeInsteadOfCrashingJavac() {
    JavaFileObject boom = source("shop.Boom",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Boom.class)",
        "public record Boom(String id) {}");
    Compilation c = Compiler.javac()
        .withProcessors(new FailingProcessor())
        .withClasspath(Fixtures.classpath())
        .compile(boom);
    assertThat(c).hadErrorContaining("[fusion/ProcessorFailure] The processor failed on shop.Boom"
        + " (java.lang.IllegalStateException: validation bug). Please report this with the"
        + " declaration; other types are still processed.").inFile(boom)
        .onLineContaining("public record Boom");
  }

  @Test
  void routerOnAnInterfaceIsAnError() {
    JavaFileObject router = source("shop.Api",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"api\")",
        "public interface Api {}");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidRouter] Api is annotated @Router but is not a"
        + " class. Put @Router on the class whose methods are the actions.")
        .inFile(router).onLineContaining("@Router");
  }

  @Test
  void privateRouterIsAnError() {
    JavaFileObject router = source("shop.Holder",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public class Holder {",
        "  @Router(\"hidden\")",
        "  private static class Secret {",
        "    @Query(description = \"Ping\")",
        "    int ping() { return 0; }",
        "  }",
        "}");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidRouter] Holder.Secret is private or generic,"
        + " so the generated Holder_Secret_Fusion cannot bind it.");
  }

  /** Runs a step whose validation throws, as a processor bug would. */
  static final class FailingProcessor extends AbstractProcessor {
    private List<FusionProcessor.Step> steps;

    @Override
    public synchronized void init(javax.annotation.processing.ProcessingEnvironment env) {
      super.init(env);
      Reporter reporter = new Reporter(env.getMessager());
      steps = List.of(new TypeStep<String>(env.getElementUtils(), reporter,
          FusionProcessor.PKG + "Presenter") {
        @Override
        String missing(TypeElement type) {
          return null;
        }

        @Override
        String generatedName(TypeElement type) {
          return type + "_Presenter";
        }

        @Override
        String validate(TypeElement type) {
          throw new IllegalStateException("validation bug");
        }

        @Override
        void write(String model) {
          throw new AssertionError("never written");
        }
      });
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      for (FusionProcessor.Step step : steps) {
        step.process(round);
      }
      return false;
    }
  }
}
