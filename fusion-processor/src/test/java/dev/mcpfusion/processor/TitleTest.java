package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.GeneratedRouter;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** {@code title =} on each verb reaches the generated descriptor; no title means {@code ""}. */
class TitleTest {
  static final JavaFileObject DESK = Fixtures.source("desk.DeskTools",
      "package desk;",
      "import dev.mcpfusion.annotation.*;",
      "@Router(value = \"desk\", description = \"A help desk\")",
      "public final class DeskTools {",
      "  @Query(description = \"List the tickets\", title = \"Open tickets\")",
      "  public String listTickets() { return \"\"; }",
      "  @Mutation(description = \"Close a ticket\", title = \" Close ticket \")",
      "  public String closeTicket(String id) { return id; }",
      "  @Action(description = \"Ping\", title = \"Ping the \\\"desk\\\"\")",
      "  public String ping() { return \"pong\"; }",
      "  @Query(description = \"Count the tickets\")",
      "  public long countTickets() { return 0; }",
      "}");

  @Test
  void everyVerbsTitleIsInItsDescriptor() throws Exception {
    Compilation c = Fixtures.compile(DESK);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> tools = loader.loadClass("desk.DeskTools");
    GeneratedRouter router = (GeneratedRouter) loader.loadClass("desk.DeskTools_Fusion")
        .getMethod("bind", tools).invoke(null, tools.getConstructor().newInstance());
    Map<String, String> titles = new LinkedHashMap<>();
    for (ActionDescriptor action : router.descriptor().actions()) {
      titles.put(action.name(), action.title());
    }
    assertThat(titles).containsExactly(Map.entry("list_tickets", "Open tickets"),
        Map.entry("close_ticket", "Close ticket"), Map.entry("ping", "Ping the \"desk\""),
        Map.entry("count_tickets", ""));
  }
}
