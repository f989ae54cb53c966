package dev.mcpfusion.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.server.Results;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Invoice;
import dev.mcpfusion.core.server.fixture.InvoiceStatus;
import dev.mcpfusion.core.server.fixture.Tenant;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A detail the agent reads is a scalar: an object's toString() never reaches the envelope. */
class FusionErrorDetailTest {
  @Test
  void scalarsAreAccepted() {
    FusionError error = FusionError.of("X", "m")
        .detail("s", "text").detail("n", 42).detail("b", true).detail("c", 'c')
        .detail("e", InvoiceStatus.PAID).detail("u", new UUID(0, 1))
        .detail("t", Instant.EPOCH).detail("d", Duration.ofSeconds(5)).detail("none", null);
    assertThat(error.details()).containsEntry("e", "PAID").containsEntry("none", "null")
        .containsEntry("t", "1970-01-01T00:00:00Z").hasSize(9);
  }

  @Test
  void anObjectIsRefusedNamingTheKeyAndTheFix() {
    Invoice invoice = new Invoice("INV-1", 100, InvoiceStatus.OPEN, "whsec_SECRET");
    assertThatThrownBy(() -> FusionError.of("X", "m").detail("invoice", invoice))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FusionError.detail(\"invoice\"")
        .hasMessageContaining(Invoice.class.getName())
        .hasMessageContaining("invoice.id()")
        .hasMessageNotContaining("whsec_SECRET");
  }

  @Test
  void aHandlerThatPutsAModelInADetailAnswersAnInternalErrorWithoutIt() {
    FusionServer server = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_1"))
        .middleware((call, next) -> {
          throw FusionError.of("ALREADY_VOID", "void")
              .detail("invoice", new Invoice("INV-1", 100, InvoiceStatus.VOID, "whsec_SECRET"));
        })
        .build();
    McpSchema.CallToolResult result = Results.toMcp(server.edge().call("billing_get_invoice",
        Map.of("id", "INV-0001"), RequestContext.empty()));
    assertThat(result.isError()).isTrue();
    String text = ((McpSchema.TextContent) result.content().get(0)).text();
    assertThat(text).contains("INTERNAL_ERROR").doesNotContain("whsec_SECRET");
    assertThat(String.valueOf(result.meta())).doesNotContain("whsec_SECRET");
  }
}
