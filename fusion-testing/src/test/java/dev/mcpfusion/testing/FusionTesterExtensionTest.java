package dev.mcpfusion.testing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.testing.fixtures.Billing.BillingTools;
import dev.mcpfusion.testing.fixtures.Billing.BillingTools_Fusion;
import dev.mcpfusion.testing.fixtures.Billing.Store;
import dev.mcpfusion.testing.fixtures.Billing.Tenant;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension injects a fresh tester per test and closes it afterwards. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FusionTesterExtensionTest {
  private static FusionTester fromFirstTest;

  @RegisterExtension
  static final FusionTesterExtension fusion = FusionTesterExtension.of(() ->
      FusionTester.of(BillingTools_Fusion.bind(new BillingTools(new Store(5))))
          .context(new Tenant("t_777")));

  @Test
  @Order(1)
  void voidingInvalidatesTheBillingCache(FusionTester tester) {
    fromFirstTest = tester;
    assertThat(tester.call("billing", "void_invoice", Map.of("id", "INV-0001")))
        .isSuccess().invalidates("billing.*");
  }

  @Test
  @Order(2)
  void eachTestGetsAFreshTesterAndTheLastOneWasClosed(FusionTester tester) {
    assertThat(tester).isNotSameAs(fromFirstTest);
    // a fresh store: INV-0001 is OPEN again
    assertThat(tester.call("billing", "get_invoice", Map.of("id", "INV-0001")))
        .isSuccess().data().hasValue("status", "OPEN");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> fromFirstTest.listTools())
        .isInstanceOf(IllegalStateException.class);
  }
}
