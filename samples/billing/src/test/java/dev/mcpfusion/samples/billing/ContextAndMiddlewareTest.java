package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.fixtures.AuthMiddleware;
import dev.mcpfusion.samples.billing.fixtures.OrphanContextTools;
import dev.mcpfusion.samples.billing.fixtures.SecureTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Typed context, middleware and warnings, end to end through the SDK. */
class ContextAndMiddlewareTest {

  private static FusionTester secure(Exposition exposition, String user) {
    return FusionTester.of(new SecureTools())
        .exposition(exposition)
        .provide(new AuthMiddleware())
        .context(new SecureTools.Session(user));
  }

  @Test
  void middlewareDerivesATypedContextValueTheHandlerReceives() {
    try (FusionTester tester = secure(Exposition.FLAT, "ada")) {
      ToolResult r = tester.call("secure", "whoami", Map.of());
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo("hello ada");
    }
  }

  @Test
  void fusionErrorThrownInMiddlewareKeepsItsCodeAndRecovery() {
    try (FusionTester tester = secure(Exposition.FLAT, " ")) {
      ToolResult r = tester.call("secure", "whoami", Map.of());
      assertThat(r).isError().hasCode("UNAUTHENTICATED")
          .hasRecovery("Ask the user to sign in, then call the tool again.");
      assertThat(r.blocks()).containsExactly("<tool_error code=\"UNAUTHENTICATED\" severity=\"error\">\n"
          + "<message>No user is signed in.</message>\n"
          + "<recovery>Ask the user to sign in, then call the tool again.</recovery>\n"
          + "</tool_error>");
    }
  }

  @Test
  void contextTypeNobodyProvidesFailsBuildNamingMethodAndParameter() {
    assertThatThrownBy(() -> FusionServer.builder("orphan", "1").register(new OrphanContextTools()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("now")
        .hasMessageContaining("clock")
        .hasMessageContaining("Clock");
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void warningOnAPresenterBackedToolReachesTheClientAsAnError(Exposition exposition) {
    try (FusionTester tester = secure(exposition, "ada")) {
      ToolResult r = tester.call("secure", "find_note", Map.of("query", "tax"));

      assertThat(r).isError().isWarning().hasCode("NO_MATCH");
      assertThat(r.blocks()).containsExactly("<tool_error code=\"NO_MATCH\" severity=\"warning\">\n"
          + "<message>No note matches \"tax\".</message>\n"
          + "<recovery>Try a shorter query.</recovery>\n"
          + "</tool_error>");
      assertThat(r.raw()).contains("\"isError\":true");
    }
  }
}
