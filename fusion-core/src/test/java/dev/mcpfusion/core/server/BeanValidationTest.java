package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.Tenant;
import dev.mcpfusion.core.server.fixture.TransferTools;
import dev.mcpfusion.core.server.fixture.TransferTools_Fusion;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BeanValidationTest {
  private final FusionServer server = FusionServer.builder("t", "1")
      .register(new TransferTools())
      .context(Tenant.class, request -> null)
      .build();

  @Test
  void customConstraintsAndValidCascadesBecomeFieldProblemsWithAgentPaths() {
    String text = Servers.text(Servers.call(server, "transfers_transfer", Map.of(
        "from", "not-an-iban",
        "lines", List.of(Map.of("to", "DE44500105175407324931", "cents", 5),
            Map.of("to", "nope", "cents", 7)))));
    assertThat(text).isEqualTo("""
        <validation_error action="transfers/transfer">
        <field name="from">must be an IBAN such as DE44500105175407324931. You sent: 'not-an-iban'.</field>
        <field name="lines[1].to">must be an IBAN such as DE44500105175407324931. You sent: 'nope'.</field>
        <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
        </validation_error>""");
  }

  @Test
  void contextSlotsAreNotValidatedAsInputs() {
    String text = Servers.text(Servers.call(server, "transfers_transfer", Map.of(
        "from", "DE44500105175407324931",
        "lines", List.of(Map.of("to", "FR7630006000011234567890189", "cents", 5)))));
    assertThat(text).isEqualTo("1 transfers from DE44500105175407324931");
  }

  @Test
  void boundRouterWithoutInstanceCannotRunBeanValidation() {
    assertThatThrownBy(() -> FusionServer.builder("t", "1")
            .register(TransferTools_Fusion.bind(new TransferTools()))
            .context(Tenant.class, request -> null)
            .build())
        .hasMessageContaining("[fusion/BeanValidationNeedsInstance] TransferTools.transfer");
  }
}
