package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.SourceVersion;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record compiled earlier (read from a class file) with a type-use {@code @Nullable}: javac
 * before 22 hides the annotation, so the processor reads the class file and says so.
 */
class NullnessInvisibleTest {

  static final JavaFileObject NULLABLE = Fixtures.source("lib.Nullable",
      "package lib;",
      "import java.lang.annotation.*;",
      "@Target(ElementType.TYPE_USE)",
      "public @interface Nullable {}");
  static final JavaFileObject THING = Fixtures.source("lib.Thing",
      "package lib;",
      "public record Thing(String id, @Nullable String note) {}");
  static final JavaFileObject SCOPE = Fixtures.source("lib.Scope",
      "package lib;",
      "public record Scope(String workspace, @Nullable String region) {}");

  /** Compiles the library and returns its class output folder. */
  static Path library(Path dir) throws Exception {
    Compilation lib = Compiler.javac().compile(NULLABLE, THING, SCOPE);
    assertThat(lib).succeeded();
    for (JavaFileObject f : lib.generatedFiles()) {
      String n = f.getName();
      Path p = dir.resolve(n.substring(n.indexOf("CLASS_OUTPUT/") + "CLASS_OUTPUT/".length()));
      Files.createDirectories(p.getParent());
      try (InputStream in = f.openInputStream()) {
        Files.write(p, in.readAllBytes());
      }
    }
    return dir;
  }

  @Test
  void typeUseNullableOnARecordFromAClassFileIsHonouredAndReported(@TempDir Path dir)
      throws Exception {
    List<File> classpath = new ArrayList<>(Fixtures.classpath());
    classpath.add(library(dir).toFile());
    JavaFileObject view = Fixtures.source("app.ThingView",
        "package app;",
        "@dev.mcpfusion.annotation.Presenter(model = lib.Thing.class)",
        "public record ThingView(String id,",
        "    String note) {}");
    JavaFileObject router = Fixtures.source("app.ScopeTools",
        "package app;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"scope\", common = lib.Scope.class)",
        "public class ScopeTools {",
        "  @Query(description = \"Count\")",
        "  public int count() { return 0; }",
        "}");
    Compilation c = Compiler.javac().withProcessors(new FusionProcessor())
        .withClasspath(classpath).compile(view, router);
    assertThat(c).succeeded();

    String presenter = Fixtures.generatedSource(c, "app.ThingView_Presenter");
    assertThat(presenter).contains("\\\"note\\\":{\\\"type\\\":[\\\"string\\\",\\\"null\\\"]}")
        .contains("\\\"required\\\":[\\\"id\\\"]");
    assertThat(Fixtures.generatedSource(c, "app.ScopeTools_Fusion"))
        .contains("FieldDescriptor.required(\"workspace\", \"{\\\"type\\\":\\\"string\\\"}\").asCommon()")
        .contains("FieldDescriptor.optional(\"region\", \"{\\\"type\\\":\\\"string\\\"}\").asCommon()");

    boolean javacHidesIt = SourceVersion.latestSupported().ordinal() < 22;
    if (javacHidesIt) {
      assertThat(c).hadWarningContaining("[fusion/NullnessInvisible] Thing.note is read from a class"
          + " file, and this javac does not show its type-use @Nullable").inFile(view)
          .onLineContaining("String note");
      assertThat(c).hadWarningContaining("[fusion/NullnessInvisible] The common field Scope.region")
          .inFile(router).onLineContaining("@Router");
    } else {
      assertThat(c).succeededWithoutWarnings();
    }
  }
}
