package dev.mcpfusion.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.testing.fixtures.Billing.BillingTools;
import dev.mcpfusion.testing.fixtures.Billing.BillingTools_Fusion;
import dev.mcpfusion.testing.fixtures.Billing.Store;
import dev.mcpfusion.testing.fixtures.Billing.Tenant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The tester hands every message to the production edge, which parses it exactly once. */
class TesterParseOnceTest {
  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void everyMessageTheTesterSendsIsParsedOnceByTheEdge(String version) {
    try (FusionTester tester = FusionTester.of(BillingTools_Fusion.bind(new BillingTools(new Store(3))))
        .context(new Tenant("t_777")).protocolVersion(version)) {
      tester.call("billing", "get_invoice", Map.of("id", "INV-0001"));
      tester.listTools();
      tester.callTool("nope", Map.of());
      assertThat(tester.server().edge().messagesParsed()).isEqualTo(tester.sentMessages().size());
      assertThat(tester.sentMessages()).hasSize(version.equals(FusionTester.MODERN) ? 3 : 5);
    }
  }
}
