package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.trace.SpanAttributes;
import dev.mcpfusion.samples.billing.fixtures.Crm;
import dev.mcpfusion.samples.billing.fixtures.Crm.Card;
import dev.mcpfusion.samples.billing.fixtures.Crm.Contact;
import dev.mcpfusion.samples.billing.fixtures.Crm.Customer;
import dev.mcpfusion.samples.billing.fixtures.RecordingTracer;
import dev.mcpfusion.samples.billing.fixtures.Reports;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * DLP redaction on the wire: every path form and detector, nested collections, partial masks, the
 * server default against a view's own {@code @Redact}, error envelopes, both eras, the span count,
 * and a failure that must answer an error instead of the data it could not mask.
 */
class RedactionTest {
  static final String STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc";

  static Customer ada() {
    return new Customer("C-1", "Ada Lovelace", "ada@example.com", "(415) 555-0132", "123-45-6789",
        "GB82 WEST 1234 5698 7654 32", List.of(new Card("Ada", "4111 1111 1111 1111")),
        List.of(new Contact("bob@example.org", "+44 20 7946 0958")),
        "Paid with 5500-0000-0000-0004, key " + STRIPE, "tok_hidden_value");
  }

  static Customer bo() {
    return new Customer("C-2", "Bo", "bo@example.net", "none", "none", "none",
        List.of(new Card("Bo", "378282246310005"), new Card("Bo", "not a card")), List.of(),
        "EMP-123456", "tok_hidden_value");
  }

  final AtomicReference<List<Customer>> customers = new AtomicReference<>(List.of(ada(), bo()));
  final RecordingTracer tracer = new RecordingTracer();

  FusionServer.Builder builder() {
    return FusionServer.builder("crm", "1").register(new Crm.CrmTools(customers::get)).tracer(tracer);
  }

  FusionTester tester(Redaction serverDefault) {
    return FusionTester.of(builder().redact(serverDefault));
  }

  static final String ADA_MASKED = "{\"id\":\"C-1\",\"name\":\"Ada Lovelace\",\"email\":\"[REDACTED]\","
      + "\"phone\":\"[REDACTED]\",\"ssn\":\"[REDACTED]\",\"iban\":\"[REDACTED]\","
      + "\"cards\":[{\"holder\":\"Ada\",\"number\":\"[REDACTED]\"}],"
      + "\"contacts\":[{\"email\":\"[REDACTED]\",\"phone\":\"[REDACTED]\"}],"
      + "\"notes\":\"Paid with [REDACTED], key [REDACTED]\"}";

  @Test
  void everyPartOfASingleResultIsMasked() {
    try (FusionTester tester = tester(Redaction.none())) {
      ToolResult r = tester.call("crm", "get_customer", Map.of());
      assertThat(r.isSuccess()).isTrue();
      assertThat(r.dataText()).isEqualTo(ADA_MASKED);
      assertThat(r.structuredContent()).hasToString("{id=C-1, name=Ada Lovelace, email=[REDACTED],"
          + " phone=[REDACTED], ssn=[REDACTED], iban=[REDACTED], cards=[{holder=Ada, number=[REDACTED]}],"
          + " contacts=[{email=[REDACTED], phone=[REDACTED]}], notes=Paid with [REDACTED], key [REDACTED]}");
      assertThat(r.blocks()).containsExactly(ADA_MASKED,
          "<domain_rules>\n- email: Primary e-mail address\n"
              + "- Escalations go to [REDACTED] or [REDACTED].\n</domain_rules>",
          "<action_suggestions>\n- crm_email_customer {\"id\":\"C-1\",\"email\":\"[REDACTED]\"}:"
              + " Call [REDACTED] if mail bounces\n</action_suggestions>");
      assertThat(r.rules()).containsExactly("email: Primary e-mail address",
          "Escalations go to [REDACTED] or [REDACTED].");
      assertThat(r.meta().get("mcpfusion/suggestions")).hasToString(
          "[{action=crm.email_customer, reason=Call [REDACTED] if mail bounces,"
              + " arguments={id=C-1, email=[REDACTED]}}]");
      assertThat(r.raw()).doesNotContain("ada@example.com", "555-0132", "6789", "WEST", "4111",
          "bob@example.org", "7946", "5500", STRIPE, "desk@crm.example", "tok_hidden_value");
      // 9 in the data, 2 in the rules, 2 in the suggestion (argument and reason).
      assertThat(tracer.calls().get(0).attributes).containsEntry(SpanAttributes.MCPFUSION_REDACTIONS, 13L);
    }
  }

  @Test
  void listsAndStreamsMaskEveryItemAndTheirNestedCollections() {
    try (FusionTester tester = tester(Redaction.none())) {
      for (String action : List.of("list_customers", "stream_customers")) {
        ToolResult r = tester.call("crm", action, Map.of());
        assertThat(r.dataText()).isEqualTo("[" + ADA_MASKED + ",{\"id\":\"C-2\",\"name\":\"Bo\","
            + "\"email\":\"[REDACTED]\",\"phone\":\"none\",\"ssn\":\"[REDACTED]\",\"iban\":\"none\","
            + "\"cards\":[{\"holder\":\"Bo\",\"number\":\"[REDACTED]\"},{\"holder\":\"Bo\","
            + "\"number\":\"[REDACTED]\"}],\"contacts\":[],\"notes\":\"EMP-123456\"}]");
        assertThat(r.structuredContent().get("items")).asList().hasSize(2);
        assertThat(r.raw()).doesNotContain("bo@example.net", "378282246310005", "not a card");
        // Suggestions are per item, deduplicated: each one masked.
        assertThat(r.suggestions()).hasSize(2);
        assertThat(r.blocks().get(r.blocks().size() - 1)).isEqualTo("<action_suggestions>\n"
            + "- crm_email_customer {\"id\":\"C-1\",\"email\":\"[REDACTED]\"}: Call [REDACTED] if mail bounces\n"
            + "- crm_email_customer {\"id\":\"C-2\",\"email\":\"[REDACTED]\"}: Call none if mail bounces\n"
            + "</action_suggestions>");
      }
    }
  }

  @Test
  void partialMaskKeepsTheLastFourAndTheSeparators() {
    try (FusionTester tester = tester(Redaction.none())) {
      assertThat(tester.call("crm", "cards", Map.of()).dataText())
          .isEqualTo("{\"id\":\"C-1\",\"cards\":[{\"holder\":\"Ada\",\"number\":\"**** **** **** 1111\"}]}");
      // Separators stay; "no card" has fewer than eight letters and digits: masked in full.
      customers.set(List.of(new Customer("C-2", "Bo", "", "", "", "", List.of(
          new Card("Bo", "378282246310005"), new Card("Bo", "not a card"), new Card("Bo", "no card")),
          List.of(), "", "")));
      assertThat(tester.call("crm", "cards", Map.of()).dataText())
          .isEqualTo("{\"id\":\"C-2\",\"cards\":[{\"holder\":\"Bo\",\"number\":\"***********0005\"},"
              + "{\"holder\":\"Bo\",\"number\":\"*** * card\"},"
              + "{\"holder\":\"Bo\",\"number\":\"[REDACTED]\"}]}");
    }
  }

  @Test
  void theServerDefaultAppliesWhereNoViewSaysOtherwiseAndAViewsOwnRedactWins() {
    Redaction policy = Redaction.detecting(Detector.CARD, Detector.API_KEY)
        .pattern("employee id", "EMP-\\d{6}");
    try (FusionTester tester = tester(policy)) {
      assertThat(tester.call("crm", "notes", Map.of()).dataText())
          .isEqualTo("{\"id\":\"C-1\",\"notes\":\"Paid with [REDACTED], key [REDACTED]\"}");
      // A result without a presenter is masked too.
      ToolResult echo = tester.call("crm", "echo", Map.of("text", "badge EMP-654321 ok"));
      assertThat(echo.dataText()).isEqualTo("badge [REDACTED] ok");
      assertThat(echo.structuredContent()).containsEntry("result", "badge [REDACTED] ok");
      // CustomerView's @Redact replaces the default: it has no "employee id" pattern.
      customers.set(List.of(bo()));
      assertThat(tester.call("crm", "get_customer", Map.of()).dataText()).contains("\"notes\":\"EMP-123456\"");
    }
  }

  /**
   * A view's static rules are checked once, when the server is built: an answer whose {@code _meta}
   * holds only those is masked as well as one that holds more.
   */
  @Test
  void staticRulesAloneInMetaAreMaskedToo() {
    try (FusionTester tester = tester(Redaction.detecting(Detector.CARD))) {
      ToolResult r = tester.call("crm", "notes", Map.of());
      assertThat(r.rules()).containsExactly("A note may quote a card such as [REDACTED]: never repeat it.");
      assertThat(r.blocks()).contains(
          "<domain_rules>\n- A note may quote a card such as [REDACTED]: never repeat it.\n</domain_rules>");
      assertThat(r.raw()).doesNotContain("4111", "5500-0000-0000-0004");
    }
    try (FusionTester tester = tester(Redaction.none())) {
      assertThat(tester.call("crm", "notes", Map.of()).rules())
          .containsExactly("A note may quote a card such as 4111 1111 1111 1111: never repeat it.");
    }
  }

  /** A UI block is masked when nothing else in the answer is: clean data, no rules, no suggestions. */
  @Test
  void aUiBlockBesideCleanDataIsMasked() {
    try (FusionTester tester = FusionTester.of(FusionServer.builder("reports", "1")
        .register(new Reports.ReportTools())
        .redact(Redaction.none().pattern("sales count", "\\d+ sales")))) {
      ToolResult r = tester.call("reports", "list_markdown", Map.of());
      assertThat(r.blocks()).containsExactly("[{\"id\":\"S-1\",\"cents\":1200},"
          + "{\"id\":\"S-2\",\"cents\":800},{\"id\":\"S-3\",\"cents\":500},"
          + "{\"id\":\"S-4\",\"cents\":300},{\"id\":\"S-5\",\"cents\":100}]",
          "<ui_passthrough type=\"markdown\" title=\"Total\">\n"
              + "**[REDACTED]**, 2900 cents &lt;net>\n</ui_passthrough>");
    }
  }

  @Test
  void withoutAnyRedactionNothingIsMaskedAndNoCountIsRecorded() {
    try (FusionTester tester = tester(Redaction.none())) {
      assertThat(tester.call("crm", "notes", Map.of()).dataText()).contains("5500-0000-0000-0004");
      assertThat(tracer.calls().get(0).attributes).doesNotContainKey(SpanAttributes.MCPFUSION_REDACTIONS);
    }
  }

  @Test
  void errorMessagesRecoveriesAndDetailsAreMaskedAndModelsGoThroughTheirPresenter() {
    try (FusionTester tester = tester(Redaction.none())) {
      ToolResult r = tester.call("crm", "complain", Map.of());
      assertThat(r.errorText()).isEqualTo("<tool_error code=\"CONFLICT\" severity=\"error\">\n"
          + "<message>Customer [REDACTED] is locked.</message>\n"
          + "<recovery>Call [REDACTED] to unlock it.</recovery>\n"
          + "<details>\n"
          + "  <detail key=\"email\">[REDACTED]</detail>\n"
          + "  <detail key=\"customer\">" + ADA_MASKED.replace("<", "&lt;") + "</detail>\n"
          + "  <detail key=\"card\">{\"holder\":\"Ada\",\"number\":\"[REDACTED]\"}</detail>\n"
          + "</details>\n"
          + "</tool_error>");
      assertThat(r.details()).containsEntry("email", "[REDACTED]").containsEntry("customer", ADA_MASKED);
      assertThat(r.raw()).doesNotContain("ada@example.com", "tok_hidden_value", "555-0132", "4111");
      assertThat(tracer.dump()).doesNotContain("ada@example.com", "555-0132")
          .contains("Customer [REDACTED] is locked.");
    }
  }

  @Test
  void theModernEraIsMaskedTheSameWay() {
    try (FusionTester tester = tester(Redaction.none()).protocolVersion(FusionTester.MODERN)) {
      assertThat(tester.call("crm", "get_customer", Map.of()).dataText()).isEqualTo(ADA_MASKED);
    }
  }

  @Test
  void whenRedactionCannotRunTheCallFailsInsteadOfSendingTheData() {
    // A runaway user pattern: java.util.regex recurses once per repetition and overflows the stack
    // on a long enough text. The reply must be INTERNAL_ERROR, never the unmasked notes.
    String secret = "ab".repeat(200_000);
    Customer c = ada();
    customers.set(List.of(new Customer(c.id(), c.name(), c.email(), c.phone(), c.ssn(), c.iban(),
        c.cards(), c.contacts(), secret, c.apiToken())));
    try (FusionTester tester = tester(Redaction.none().pattern("runaway", "(a|b)*c"))) {
      ToolResult r = tester.call("crm", "notes", Map.of());
      assertThat(r.isError()).isTrue();
      assertThat(r.errorCode()).isEqualTo("INTERNAL_ERROR");
      assertThat(r.errorText()).startsWith("<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n"
          + "<message>[crm/notes] The tool failed unexpectedly (incident ");
      assertThat(r.raw()).doesNotContain("abab").doesNotContain("C-1");
      assertThat(r.structuredContent()).isNull();
      assertThat(tracer.dump()).doesNotContain("abab").contains("StackOverflowError");
      // The server stays up and answers the next call.
      assertThat(tester.call("crm", "echo", Map.of("text", "still here")).dataText()).isEqualTo("still here");
    }
  }

  @Test
  void aModelDetailWithNoPresenterFailsClosed() {
    try (FusionTester tester = FusionTester.of(FusionServer.builder("crm", "1")
        .register(new Crm.CrmTools(customers::get))
        .middleware((call, next) -> {
          throw dev.mcpfusion.core.FusionError.conflict("no")
              .detail("contact", new Contact("eve@example.com", "1"));
        }))) {
      ToolResult r = tester.call("crm", "echo", Map.of("text", "x"));
      // Contact's view exists but no action of this server presents a Contact.
      assertThat(r.errorCode()).isEqualTo("INTERNAL_ERROR");
      assertThat(r.raw()).doesNotContain("eve@example.com");
    }
  }

  @Test
  void aRedactPathThatIsNotTextOrMatchesNothingFailsTheBuild() {
    assertThatThrownBy(() -> FusionServer.builder("bad", "1").register(new Crm.BadTools()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/RedactPath] @Redact path \"cards\" of BadView ends on 'cards'"
            + " (type \"array\"); only text can be masked without breaking the output schema.")
        .hasMessageContaining("[fusion/RedactPath] @Redact path \"expiry\" of BadView matches no"
            + " field of the view.")
        .hasMessageNotContaining("\"id\"");
    assertThatThrownBy(() -> FusionServer.builder("bad", "1").register(new Crm.CrmTools(List::of))
        .redact(Redaction.paths("items[1].x")).build())
        .hasMessageContaining("[fusion/RedactPath] FusionServer.Builder.redact(...): the redaction"
            + " path \"items[1].x\" is not valid: 'items[1]' is not a field name.");
  }
}
