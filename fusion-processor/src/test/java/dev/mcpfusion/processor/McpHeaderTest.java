package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code @McpHeader} on a top-level argument becomes the argument schema's {@code x-mcp-header};
 * a name that is not an RFC 9110 token, a type a header cannot carry, two arguments on one header
 * (ignoring case) and a mark inside an object each fail the build with
 * {@code [fusion/InvalidMcpHeader]} on the line at fault.
 */
class McpHeaderTest {
  private static JavaFileObject tools(String parameters) {
    return source("shop.RegionTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.Optional;",
        "@Router(value = \"shop\", common = RegionTools.Tenant.class)",
        "public class RegionTools {",
        "  public record Tenant(@McpHeader(\"Tenant\") String tenant) {}",
        "  public record Address(@McpHeader(\"City\") String city) {}",
        "  public enum Tier { GOLD, SILVER }",
        "  @Mutation(description = \"Book a slot\")",
        "  public String book(",
        "      " + parameters + ") { return \"ok\"; }",
        "}");
  }

  private static Compilation compile(JavaFileObject source) {
    return javac().withProcessors(new FusionProcessor()).withClasspath(Fixtures.classpath())
        .compile(source);
  }

  @Test
  void aMarkedArgumentCarriesItsHeaderInItsSchema() {
    Compilation c = compile(tools("@McpHeader(\"Region\") String region,"
        + " @McpHeader(\"Priority\") Optional<Integer> priority, @McpHeader(\"Tier\") Tier tier,"
        + " @McpHeader(\"Dry-Run\") boolean dryRun"));
    assertThat(c).succeededWithoutWarnings();
    String generated = Fixtures.generatedSource(c, "shop.RegionTools_Fusion");
    org.assertj.core.api.Assertions.assertThat(generated)
        .contains("{\\\"type\\\":\\\"string\\\",\\\"x-mcp-header\\\":\\\"Region\\\"}")
        .contains("{\\\"type\\\":\\\"integer\\\",\\\"x-mcp-header\\\":\\\"Priority\\\"}")
        .contains("\\\"x-mcp-header\\\":\\\"Tier\\\"")
        .contains("{\\\"type\\\":\\\"boolean\\\",\\\"x-mcp-header\\\":\\\"Dry-Run\\\"}")
        // A component of the router's common record is a top-level argument too.
        .contains("\\\"x-mcp-header\\\":\\\"Tenant\\\"");
  }

  @Test
  void aNameThatIsNotATokenFails() {
    JavaFileObject router = tools("@McpHeader(\"Re gion\") String region");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidMcpHeader] RegionTools.book mirrors 'region'"
        + " in @McpHeader(\"Re gion\"), which is not a header name: ' ' is not allowed in a header"
        + " name. Use an RFC 9110 token (letters, digits, -), such as @McpHeader(\"Region\"): the"
        + " client then sends Mcp-Param-Region.").inFile(router).onLineContaining("Re gion");
    assertThat(c).hadErrorCount(1);
    assertThat(compile(tools("@McpHeader(\"\") String region"))).hadErrorContaining(
        "which is not a header name: it is empty.");
  }

  @Test
  void aTypeAHeaderCannotCarryFails() {
    JavaFileObject router = tools("@McpHeader(\"Ids\") java.util.List<String> ids");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidMcpHeader] RegionTools.book mirrors 'ids' in"
        + " @McpHeader(\"Ids\"), but it is a List<String>: a header carries only a string, integer,"
        + " number or boolean. Mark an argument of one of those types, or remove @McpHeader.")
        .inFile(router).onLineContaining("@McpHeader(\"Ids\")");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void twoArgumentsOnOneHeaderFailIgnoringCase() {
    JavaFileObject router = tools("@McpHeader(\"Region\") String region,"
        + " @McpHeader(\"tenant\") String owner");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidMcpHeader] RegionTools.book mirrors both"
        + " 'tenant' and 'owner' in Mcp-Param-tenant (header names are case-insensitive). Give each"
        + " argument a header name of its own.").inFile(router).onLineContaining("public String book(");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void aMarkInsideAnObjectFails() {
    JavaFileObject router = tools("Address address");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidMcpHeader] 'city' of RegionTools.Address is"
        + " marked @McpHeader, but RegionTools.book takes RegionTools.Address from the agent as"
        + " 'address': only a top-level argument is mirrored in a header. Mark an action parameter"
        + " or a component of the router's common record instead.").inFile(router)
        .onLineContaining("Address address");
    assertThat(c).hadErrorCount(1);
  }
}
