package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Page<Invoice>} and {@code _select} on the billing connector, on the wire through the real
 * SDK server, in both protocol eras and both expositions.
 */
class PagesAndSelectTest {

  static Stream<Arguments> eras() {
    List<Arguments> all = new ArrayList<>();
    for (String era : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
      for (Exposition exposition : Exposition.values()) {
        all.add(Arguments.of(era, exposition));
      }
    }
    return all.stream();
  }

  private static FusionTester tester(String era, Exposition exposition) {
    return FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), exposition))
        .protocolVersion(era);
  }

  @SuppressWarnings("unchecked")
  private static String next(ToolResult r) {
    Object truncated = r.structuredContent().get("truncated");
    return truncated == null ? null : (String) ((Map<String, Object>) truncated).get("next");
  }

  @SuppressWarnings("unchecked")
  private static List<String> ids(ToolResult r) {
    List<String> ids = new ArrayList<>();
    for (Object item : (List<Object>) r.structuredContent().get("items")) {
      ids.add((String) ((Map<String, Object>) item).get("id"));
    }
    return ids;
  }

  @ParameterizedTest
  @MethodSource("eras")
  void pagingVisitsEveryInvoiceExactlyOnce(String era, Exposition exposition) {
    try (FusionTester tester = tester(era, exposition)) {
      List<String> seen = new ArrayList<>();
      Map<String, Object> args = new HashMap<>();
      int pages = 0;
      String cursor;
      do {
        ToolResult r = tester.call("billing", "list_invoices", args);
        assertThat(r).isSuccess();
        pages++;
        seen.addAll(ids(r));
        cursor = next(r);
        args.put("cursor", cursor);
      } while (cursor != null && pages < 100);
      assertThat(pages).isEqualTo(20);
      assertThat(seen).hasSize(1000);
      assertThat(new LinkedHashSet<>(seen)).hasSize(1000);
      assertThat(seen.get(0)).isEqualTo("INV-1000");
      assertThat(seen.get(999)).isEqualTo("INV-0001");
    }
  }

  @ParameterizedTest
  @MethodSource("eras")
  void theNextCursorIsInTheSummaryTheStructuredContentAndMeta(String era, Exposition exposition) {
    try (FusionTester tester = tester(era, exposition)) {
      ToolResult r = tester.call("billing", "list_invoices", Map.of());
      String next = next(r);
      assertThat(next).startsWith("p1.");
      String call = exposition == Exposition.FLAT ? "billing_list_invoices"
          : "billing (action: list_invoices)";
      assertThat(r.blocks().get(1)).isEqualTo("<ui_passthrough type=\"summary\">\n"
          + "📊 **Summary**: ⚠️ Dataset truncated. 50 shown, more available. For the next page, call "
          + call + " again with the same arguments and \"cursor\": \"" + next + "\".\n"
          + "</ui_passthrough>");
      assertThat(r.structuredContent().get("truncated"))
          .isEqualTo(Map.of("shown", 50, "more", true, "next", next));
      assertThat(r.meta().get(ToolResult.META_TRUNCATION))
          .isEqualTo(Map.of("shown", 50, "more", true, "next", next));
      // the handler's own cursor (the last id shown) is wrapped, never sent as is
      assertThat(next).doesNotContain("INV-");
    }
  }

  @Test
  void theLastPageCarriesNoCursorAndAFilterPagesToo() {
    try (FusionTester tester = tester(FusionTester.DEFAULT_VERSION, Exposition.FLAT)) {
      Map<String, Object> args = new HashMap<>(Map.of("status", "OPEN"));
      Set<String> seen = new LinkedHashSet<>();
      ToolResult r;
      do {
        r = tester.call("billing", "list_invoices", args);
        assertThat(r).isSuccess();
        seen.addAll(ids(r));
        args.put("cursor", next(r));
      } while (next(r) != null);
      assertThat(r.structuredContent()).doesNotContainKey("truncated");
      assertThat(r.meta()).doesNotContainKey(ToolResult.META_TRUNCATION);
      assertThat(r.blocks()).noneMatch(b -> b.startsWith("<ui_passthrough type=\"summary\">"));
      long open = InvoiceStore.sample().list(new dev.mcpfusion.samples.billing.store.Tenant(
          dev.mcpfusion.samples.billing.store.Tenant.SAMPLE_TENANT),
          dev.mcpfusion.samples.billing.model.InvoiceStatus.OPEN).size();
      assertThat(seen).hasSize((int) open);
    }
  }

  @ParameterizedTest
  @MethodSource("eras")
  void aCursorTheToolNeverGaveOutIsAValidationError(String era, Exposition exposition) {
    try (FusionTester tester = tester(era, exposition)) {
      ToolResult r = tester.call("billing", "list_invoices", Map.of("cursor", "page-2"));
      assertThat(r).isError();
      assertThat(r.errorCode()).isEqualTo("VALIDATION_ERROR");
      String action = exposition == Exposition.FLAT ? "billing_list_invoices" : "billing";
      assertThat(r.errorText()).isEqualTo("<validation_error action=\"billing/list_invoices\">\n"
          + "<field name=\"cursor\">is not a cursor this tool gave out. You sent: 'page-2'. Omit cursor"
          + " to start from the first page, or send the truncated.next value of the previous result"
          + " unchanged.</field>\n"
          + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
          + "</validation_error>");
      assertThat(action).isNotEmpty();

      // one altered character of a real cursor fails its checksum
      String real = next(tester.call("billing", "list_invoices", Map.of()));
      char last = real.charAt(real.length() - 1);
      String altered = real.substring(0, real.length() - 1) + (last == '0' ? '1' : '0');
      assertThat(tester.call("billing", "list_invoices", Map.of("cursor", altered)).errorCode())
          .isEqualTo("VALIDATION_ERROR");
    }
  }

  @Test
  void aCursorTheHandlerRejectsIsAValidationErrorToo() {
    // A well-formed framework cursor around a position the handler cannot use.
    String wrapped = dev.mcpfusion.core.presenter.PerCall.encode("yesterday", 0);
    try (FusionTester tester = tester(FusionTester.MODERN, Exposition.FLAT)) {
      ToolResult r = tester.call("billing", "list_invoices", Map.of("cursor", wrapped));
      assertThat(r.errorText()).isEqualTo("<validation_error action=\"billing/list_invoices\">\n"
          + "<field name=\"cursor\">is not a position in this listing. You sent: '" + cut(wrapped)
          + "'. Omit cursor to start again from the first page.</field>\n"
          + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
          + "</validation_error>");
    }
  }

  private static String cut(String s) {
    return s.length() <= 47 ? s : s.substring(0, 47) + "…";
  }

  @ParameterizedTest
  @MethodSource("eras")
  void selectNarrowsDataAndStructuredContentAndRulesStillApply(String era, Exposition exposition) {
    try (FusionTester tester = tester(era, exposition)) {
      ToolResult r = tester.call("billing", "get_invoice",
          Map.of("id", "INV-0007", "_select", List.of("status", "id")));
      assertThat(r).isSuccess();
      // view order, not the order asked for
      assertThat(r.dataText()).isEqualTo("{\"id\":\"INV-0007\",\"status\":\"" 
          + r.structuredContent().get("status") + "\"}");
      assertThat(r.structuredContent()).containsOnlyKeys("id", "status");
      assertThat(r.rules()).contains("Money is in integer cents. Divide by 100 before showing it to a person.");

      ToolResult page = tester.call("billing", "list_invoices",
          Map.of("status", "OPEN", "_select", List.of("totalCents")));
      assertThat(page).isSuccess();
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> items = (List<Map<String, Object>>) page.structuredContent().get("items");
      assertThat(items).isNotEmpty().allSatisfy(i -> assertThat(i).containsOnlyKeys("totalCents"));
      // suggestions read the whole view: status decides them even though it was not selected
      assertThat(page.blocks()).anyMatch(b -> b.startsWith("<action_suggestions>"));
    }
  }

  @ParameterizedTest
  @MethodSource("eras")
  void anUnknownSelectedFieldIsAValidationErrorListingTheFields(String era, Exposition exposition) {
    try (FusionTester tester = tester(era, exposition)) {
      ToolResult r = tester.call("billing", "get_invoice",
          Map.of("id", "INV-0007", "_select", List.of("id", "webhookSecret")));
      assertThat(r.errorText()).isEqualTo("<validation_error action=\"billing/get_invoice\">\n"
          + "<field name=\"_select[1]\">must be one of [id, totalCents, status]. You sent: 'webhookSecret'.</field>\n"
          + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
          + "</validation_error>");
      ToolResult notArray = tester.call("billing", "get_invoice", Map.of("id", "INV-0007", "_select", "id"));
      assertThat(notArray.errorCode()).isEqualTo("VALIDATION_ERROR");
      assertThat(notArray.errorText()).contains("<field name=\"_select\">expected array but was string");
    }
  }

  @ParameterizedTest
  @MethodSource("eras")
  void selectSentToAMutationIsAnUnknownArgumentAndTheMutationDoesNotRun(String era,
      Exposition exposition) {
    try (FusionTester tester = tester(era, exposition)) {
      Object before = tester.call("billing", "get_invoice", Map.of("id", "INV-0007"))
          .structuredContent().get("status");
      ToolResult r = tester.call("billing", "void_invoice",
          Map.of("id", "INV-0007", "_select", List.of("id")));
      assertThat(r.errorCode()).isEqualTo("VALIDATION_ERROR");
      assertThat(r.errorText()).startsWith("<validation_error action=\"billing/void_invoice\">\n"
          + "<field name=\"_select\">is not an accepted field. You sent: ");
      assertThat(tester.call("billing", "get_invoice", Map.of("id", "INV-0007"))
          .structuredContent().get("status")).isEqualTo(before);
    }
  }

  @Test
  void onlyTheQueriesListSelectAndOnlyTheirOutputSchemaDropsRequired() {
    try (FusionTester tester = tester(FusionTester.DEFAULT_VERSION, Exposition.FLAT)) {
      Map<String, Map<String, Object>> inputs = new HashMap<>();
      Map<String, Map<String, Object>> outputs = new HashMap<>();
      tester.listTools().forEach(t -> {
        inputs.put(t.name(), t.inputSchema());
        outputs.put(t.name(), t.outputSchema());
      });
      assertThat(String.valueOf(inputs.get("billing_get_invoice").get("properties"))).contains("_select");
      assertThat(String.valueOf(inputs.get("billing_list_invoices").get("properties"))).contains("_select");
      assertThat(String.valueOf(inputs.get("billing_void_invoice").get("properties")))
          .doesNotContain("_select");
      // a mutation's item always carries every view field, so its output schema keeps required
      assertThat(outputs.get("billing_void_invoice")).containsKey("required");
      assertThat(outputs.get("billing_get_invoice")).doesNotContainKey("required");
    }
  }

  @Test
  void theToolListsSelectAndCursorAndAnOutputSchemaANarrowedItemFits() {
    try (FusionTester tester = tester(FusionTester.DEFAULT_VERSION, Exposition.FLAT)) {
      var list = tester.listTools().stream().filter(t -> t.name().equals("billing_list_invoices"))
          .findFirst().orElseThrow();
      Map<String, Object> input = list.inputSchema();
      @SuppressWarnings("unchecked")
      Map<String, Object> properties = (Map<String, Object>) input.get("properties");
      @SuppressWarnings("unchecked")
      Map<String, Object> select = (Map<String, Object>) properties.get("_select");
      assertThat(select.get("items")).isEqualTo(Map.of("type", "string",
          "enum", List.of("id", "totalCents", "status")));
      assertThat(properties).containsKey("cursor");
      assertThat(String.valueOf(input.get("required"))).doesNotContain("_select").doesNotContain("cursor");
      @SuppressWarnings("unchecked")
      Map<String, Object> items = (Map<String, Object>) ((Map<String, Object>) list.outputSchema()
          .get("properties")).get("items");
      @SuppressWarnings("unchecked")
      Map<String, Object> item = (Map<String, Object>) items.get("items");
      assertThat(item).doesNotContainKey("required");
    }
  }

  @ParameterizedTest
  @MethodSource("eras")
  void aPageCutByTheByteCapResumesRightAfterTheLastItemSent(String era, Exposition exposition) {
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(),
        exposition).limits(CallLimits.none().maxEgressBytes(6_000))).protocolVersion(era)) {
      List<String> seen = new ArrayList<>();
      Map<String, Object> args = new HashMap<>();
      int calls = 0;
      boolean capped = false;
      String cursor;
      do {
        ToolResult r = tester.call("billing", "list_invoices", args);
        assertThat(r).isSuccess();
        calls++;
        List<String> ids = ids(r);
        seen.addAll(ids);
        cursor = next(r);
        if (cursor != null) {
          capped |= r.meta().get(ToolResult.META_TRUNCATION) instanceof Map<?, ?> m
              && m.containsKey("withheld");
          assertThat(r.blocks().get(1)).contains("\"cursor\": \"" + cursor + "\"");
        }
        args.put("cursor", cursor);
      } while (cursor != null && calls < 500);
      assertThat(capped).isTrue();
      assertThat(seen).hasSize(1000);
      assertThat(new LinkedHashSet<>(seen)).hasSize(1000);
    }
  }
}
