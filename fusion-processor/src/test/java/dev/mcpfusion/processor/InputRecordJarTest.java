package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input record from a library jar has no source file or line: its diagnostics are anchored on
 * the parameter that makes it a tool input, and name the action and the component.
 */
class InputRecordJarTest {

  /** Compiles the library records and packs them into a jar. */
  private static File libraryJar(Path dir) throws Exception {
    Compilation lib = Compiler.javac().withClasspath(Fixtures.classpath()).compile(
        Fixtures.source("lib.Filter",
            "package lib;",
            "import dev.mcpfusion.annotation.*;",
            "public record Filter(String text, @Guarded String tenantId) {}"),
        Fixtures.source("lib.Note",
            "package lib;",
            "import dev.mcpfusion.annotation.*;",
            "public record Note(String body, @Hidden String internalNote) {}"),
        Fixtures.source("lib.Batch",
            "package lib;",
            "public record Batch(String name, java.util.List<Note> notes) {}"));
    assertThat(lib).succeeded();
    return Fixtures.jar(dir, lib);
  }

  @Test
  void guardedAndHiddenComponentsOfJarRecordsAreReportedOnTheParameter(@TempDir Path dir)
      throws Exception {
    List<File> classpath = new ArrayList<>(Fixtures.classpath());
    classpath.add(libraryJar(dir));
    JavaFileObject router = Fixtures.source("app.LibTools",
        "package app;",
        "import dev.mcpfusion.annotation.*;",
        "import lib.*;",
        "@Router(\"lib\")",
        "public class LibTools {",
        "  @Query(description = \"Search\")",
        "  public int search(Filter filter) { return 0; }",
        "  @Mutation(description = \"Import\")",
        "  public int load(Batch batch) { return 0; }",
        "}");
    Compilation c = Compiler.javac().withProcessors(new FusionProcessor())
        .withClasspath(classpath).compile(router);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/GuardedInput] 'tenantId' of Filter is @Guarded, so"
        + " the agent must not send it, but LibTools.search takes Filter from the agent as"
        + " 'filter'.").inFile(router).onLineContaining("Filter filter");
    assertThat(c).hadErrorContaining("[fusion/HiddenInput] 'internalNote' of Note is @Hidden, so"
        + " the agent must never see it, but LibTools.load takes Note from the agent as"
        + " 'batch.notes[]'").inFile(router).onLineContaining("Batch batch");
    assertThat(c).hadErrorCount(2);
    for (Diagnostic<? extends JavaFileObject> d : c.errors()) {
      assertThat(d.getSource()).as(d.getMessage(null)).isNotNull();
      assertThat(d.getLineNumber()).as(d.getMessage(null)).isPositive();
    }
  }
}
