package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** {@code @TaskSupport} belongs on a verb of a {@code @Router}; anywhere else it is an error. */
class TaskSupportPlacementTest {

  @Test
  void taskSupportOnAVerbCompiles() {
    JavaFileObject router = source("shop.Jobs",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"jobs\", description = \"Long jobs\")",
        "public final class Jobs {",
        "  @Action(description = \"Rebuild the index\")",
        "  @TaskSupport(TaskMode.REQUIRED)",
        "  public String reindex() { return \"ok\"; }",
        "}");
    assertThat(Fixtures.compile(router)).succeededWithoutWarnings();
  }

  @Test
  void taskSupportWithoutAVerbOrOutsideARouterIsAnError() {
    JavaFileObject router = source("shop.Jobs",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"jobs\", description = \"Long jobs\")",
        "public final class Jobs {",
        "  @Action(description = \"Rebuild the index\")",
        "  public String reindex() { return \"ok\"; }",
        "  @TaskSupport",
        "  String helper() { return \"\"; }",
        "}");
    JavaFileObject plain = source("shop.Plain",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public final class Plain {",
        "  @TaskSupport public String work() { return \"\"; }",
        "}");
    Compilation c = Fixtures.compile(router, plain);
    assertThat(c).hadErrorContaining("[fusion/TaskSupportWithoutVerb] Jobs.helper is annotated"
        + " @TaskSupport, but it is not a @Query, @Mutation or @Action of a @Router, so no call of it"
        + " could run as a task. Annotate the method with its verb inside a @Router class, or remove"
        + " @TaskSupport.").inFile(router).onLineContaining("String helper(");
    assertThat(c).hadErrorContaining("[fusion/TaskSupportWithoutVerb] Plain.work is annotated")
        .inFile(plain).onLineContaining("work()");
    assertThat(c).hadErrorCount(2);
  }
}
