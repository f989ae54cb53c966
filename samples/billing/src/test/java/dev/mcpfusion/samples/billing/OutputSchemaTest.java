package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import dev.mcpfusion.testing.ToolInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * structuredContent is the stripped data and conforms to the listed output schema: the SDK server
 * checks it on every call (a failure would reach the client as an error), and the SDK's own
 * validator rejects a structuredContent that carries a field the view does not declare.
 */
class OutputSchemaTest {
  private final JsonSchemaValidator validator = new DefaultJsonSchemaValidator();

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void structuredContentConformsToTheListedOutputSchema(Exposition exposition) {
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), exposition))) {
      Map<String, Object> schema = tester.listTools().stream()
          .filter(t -> t.name().startsWith("billing") && (exposition == Exposition.GROUPED
              || t.name().equals("billing_get_invoice")))
          .findFirst().orElseThrow().outputSchema();
      assertThat(schema).containsEntry("type", "object");

      ToolResult one = tester.call("billing", "get_invoice", Map.of("id", "INV-0001"));
      ToolResult many = tester.call("billing", "list_invoices", Map.of());
      assertThat(one).isSuccess();
      assertThat(many).isSuccess();
      assertThat(validator.validate(schema, one.structuredContent()).valid()).isTrue();
      if (exposition == Exposition.GROUPED) {
        assertThat(validator.validate(schema, many.structuredContent()).valid()).isTrue();
      }
    }
  }

  @Test
  void negativeControlAStructuredContentWithAnUndeclaredFieldIsRejected() {
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT))) {
      ToolInfo get = tester.listTools().stream()
          .filter(t -> t.name().equals("billing_get_invoice")).findFirst().orElseThrow();
      ToolResult one = tester.call("billing", "get_invoice", Map.of("id", "INV-0001"));

      Map<String, Object> leaked = new LinkedHashMap<>(one.structuredContent());
      leaked.put("webhookSecret", "whsec_123");
      assertThat(validator.validate(get.outputSchema(), leaked).valid()).isFalse();

      Map<String, Object> wrongType = new LinkedHashMap<>(one.structuredContent());
      wrongType.put("totalCents", "lots");
      assertThat(validator.validate(get.outputSchema(), wrongType).valid()).isFalse();
    }
  }
}
