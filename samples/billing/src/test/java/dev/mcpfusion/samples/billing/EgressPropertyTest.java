package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.fixtures.Orders;
import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.billing.store.Tenant;
import dev.mcpfusion.samples.billing.tools.BillingTools;
import dev.mcpfusion.samples.billing.tools.TenantGuard;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Strip mode, proven on the wire: random sentinels planted in every {@code @Hidden} field, in map
 * keys no view declares and in nested models never appear in any raw JSON-RPC reply, in FLAT and
 * GROUPED exposition, on success and error paths alike.
 */
class EgressPropertyTest {
  private static final AtomicReference<Orders.Order> ORDER = new AtomicReference<>();
  private static final AtomicReference<List<Map<String, Object>>> ROWS = new AtomicReference<>(List.of());
  private static final Map<Exposition, FusionTester> TESTERS = new LinkedHashMap<>();
  private static final Map<Exposition, InvoiceStore> STORES = new LinkedHashMap<>();

  @BeforeContainer
  static void start() {
    for (Exposition exposition : Exposition.values()) {
      InvoiceStore store = new InvoiceStore();
      STORES.put(exposition, store);
      FusionServer.Builder builder = FusionServer.builder("egress", "1")
          .register(new BillingTools(store))
          .register(new Orders.OrderTools(ORDER::get, ROWS::get))
          .exposition(exposition)
          .provide(new TenantGuard())
          .context(Tenant.class, Tenant::from);
      TESTERS.put(exposition, FusionTester.of(builder));
    }
  }

  @AfterContainer
  static void stop() {
    TESTERS.values().forEach(FusionTester::close);
  }

  @Provide
  Arbitrary<String> sentinels() {
    return Arbitraries.strings().withCharRange('a', 'z').ofLength(14).map(s -> "zq" + s);
  }

  @Provide
  Arbitrary<Map<String, String>> extraKeys() {
    Arbitrary<String> keys = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(3).ofMaxLength(12)
        .filter(k -> !List.of("id", "lines", "customer", "sku", "qty", "name").contains(k))
        .map(k -> "zk" + k);
    return Arbitraries.maps(keys, sentinels()).ofMinSize(1).ofMaxSize(5);
  }

  @Property(tries = 40)
  void hiddenValuesNeverReachTheWire(@ForAll("sentinels") String secret,
      @ForAll("sentinels") String nested, @ForAll("extraKeys") Map<String, String> extras) {
    for (Exposition exposition : Exposition.values()) {
      FusionTester tester = TESTERS.get(exposition);
      InvoiceStore store = STORES.get(exposition);
      String tenant = Tenant.SAMPLE_TENANT;
      store.put(new Invoice("INV-0001", 4200, InvoiceStatus.OPEN, secret,
          Map.of("flag", secret, secret, nested), tenant));
      store.put(new Invoice("INV-0002", 100, InvoiceStatus.PAID, secret, Map.of(), tenant));
      ORDER.set(new Orders.Order("O-1",
          List.of(new Orders.LineItem("SKU-1", 2, nested), new Orders.LineItem("SKU-2", 1, secret)),
          new Orders.Customer("C-1", "Ada", nested), secret));
      ROWS.set(rows(extras, secret, nested));

      List<String> replies = new ArrayList<>();
      replies.add(tester.call("billing", "list_invoices", Map.of()).raw());
      replies.add(tester.call("billing", "get_invoice", Map.of("id", "INV-0001")).raw());
      replies.add(tester.call("billing", "get_invoice", Map.of("id", "INV-9999")).raw());
      replies.add(tester.call("billing", "get_invoice", Map.of("id", 7)).raw());
      replies.add(tester.call("billing", "void_invoice", Map.of("id", "INV-0002")).raw());
      replies.add(tester.call("billing", "void_invoice", Map.of("id", "INV-0001")).raw());
      replies.add(tester.call("orders", "get_order", Map.of()).raw());
      replies.add(tester.call("orders", "order_rows", Map.of()).raw());
      replies.add(tester.callTool("no_such_tool", Map.of()).raw());

      for (String reply : replies) {
        assertThat(reply).isNotBlank().doesNotContain(secret).doesNotContain(nested);
        for (Map.Entry<String, String> extra : extras.entrySet()) {
          assertThat(reply).doesNotContain(extra.getKey()).doesNotContain(extra.getValue());
        }
      }
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains(secret) || m.contains(nested));
    }
  }

  @Property(tries = 2)
  void hiddenPropertyNamesNeverAppearInToolsList(@ForAll("sentinels") String unused) {
    for (Exposition exposition : Exposition.values()) {
      List<ToolInfo> tools = TESTERS.get(exposition).listTools();
      String listed = tools.toString();
      assertThat(tools).isNotEmpty();
      for (ToolInfo tool : tools) {
        listed += String.valueOf(tool.inputSchema()) + tool.outputSchema() + tool.description();
      }
      assertThat(listed).doesNotContain("webhookSecret", "internalFlags", "tenantId", "costBasis",
          "taxNumber", "paymentToken");
    }
  }

  private static List<Map<String, Object>> rows(Map<String, String> extras, String secret, String nested) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Map<String, Object> line = new LinkedHashMap<>(extras);
      line.put("sku", "SKU-" + i);
      line.put("qty", i);
      line.put("costBasis", nested);
      Map<String, Object> customer = new LinkedHashMap<>(extras);
      customer.put("id", "C-" + i);
      customer.put("name", "Customer " + i);
      customer.put("taxNumber", secret);
      Map<String, Object> row = new LinkedHashMap<>(extras);
      row.put("id", "O-" + i);
      row.put("lines", List.of(line));
      row.put("customer", customer);
      row.put("paymentToken", secret);
      rows.add(row);
    }
    return rows;
  }
}
