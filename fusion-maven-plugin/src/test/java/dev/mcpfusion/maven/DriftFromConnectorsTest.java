package dev.mcpfusion.maven;

import static dev.mcpfusion.maven.Connectors.edit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.lock.Change;
import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.Drift;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.lock.Severity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each rule of issue 5 from a real before/after pair: the billing connector and one edit of its
 * sources, both compiled with the fusion processor and read from their classes.
 */
class DriftFromConnectorsTest {
  private static final String TOOLS = "acme/BillingTools.java";
  private static final String VIEW = "acme/InvoiceView.java";
  private static final String MODEL = "acme/Invoice.java";
  private static final String ARROW = " \u2192 ";

  private static Contract before;

  @BeforeAll
  static void compileTheCommittedConnector() throws Exception {
    before = Connectors.contract(Connectors.compile(Connectors.billing(),
        Files.createTempDirectory("fusion-lock-before")), LockProfile.defaults());
  }

  static Stream<Arguments> rules() {
    Map<String, String> base = Connectors.billing();
    return Stream.of(
        row("action removed", edit(base, TOOLS, """
              @Mutation(description = "Void an open invoice", presenter = InvoiceView.class)
              @Invalidates("billing.*")
              public Invoice voidInvoice(@NotBlank String id) {
                return null;
              }
            """, ""), Severity.BREAKING, "BREAKING billing_void_invoice: tool removed"),
        row("required field added", edit(base, TOOLS, "getInvoice(@NotBlank String id)",
            "getInvoice(@NotBlank String id, @NotBlank String currency)"),
            Severity.BREAKING, "BREAKING billing_get_invoice: required field added: currency"),
        row("input type changed", edit(base, TOOLS, "getInvoice(@NotBlank String id)", "getInvoice(int id)"),
            Severity.BREAKING, "BREAKING billing_get_invoice: input type changed: id: {\"minLength\":1,\"type\":\"string\"}"
                + ARROW + "{\"type\":\"integer\"}"),
        row("egress fields changed", edit(base, VIEW, "record InvoiceView(String id, long totalCents)",
            "record InvoiceView(String id, long totalCents, String customer)"),
            Severity.BREAKING, "BREAKING billing_get_invoice: egress fields changed: [id, totalCents]" + ARROW
                + "[id, totalCents, customer]"),
        row("rules changed", edit(base, VIEW, "@Rules(\"Money is in integer cents.\")", "@Rules(\"Money is in dollars.\")"),
            Severity.BREAKING, "BREAKING billing_get_invoice: rules changed: [\"Money is in integer cents.\"]" + ARROW
                + "[\"Money is in dollars.\"]"),
        row("dynamic rules added", edit(base, VIEW, "long totalCents) {\n}", """
            long totalCents) {
              @Rules
              static List<String> warnings(InvoiceView v) {
                return v.totalCents() < 0 ? List.of("Negative totals are credit notes.") : List.of();
              }
            }"""), Severity.BREAKING, "BREAKING billing_get_invoice: dynamic rules added (@Rules method)"),
        row("described view property text (rules win)", edit(base, MODEL, "@Describe(\"Total in integer cents\")",
            "@Describe(\"Total in cents\")"), Severity.BREAKING, "BREAKING billing_get_invoice: rules changed: "
                + "[\"totalCents: Total in integer cents\"]" + ARROW + "[\"totalCents: Total in cents\"]"),
        row("readOnly flipped", edit(base, TOOLS, "@Action(description = \"Send the invoice by email\")",
            "@Action(description = \"Send the invoice by email\", readOnly = true)"),
            Severity.BREAKING, "BREAKING billing_send_invoice: readOnly flipped: false" + ARROW + "true"),
        row("destructive flipped", edit(base, TOOLS, "@Action(description = \"Send the invoice by email\")",
            "@Action(description = \"Send the invoice by email\", destructive = true)"),
            Severity.BREAKING, "BREAKING billing_send_invoice: destructive flipped: false" + ARROW + "true"),
        row("idempotent flipped", edit(base, TOOLS, "@Action(description = \"Send the invoice by email\")",
            "@Action(description = \"Send the invoice by email\", idempotent = true)"),
            Severity.RISKY, "RISKY billing_send_invoice: idempotent flipped: false" + ARROW + "true"),
        row("middleware changed", edit(base, TOOLS, "  @Query(description = \"Get one invoice\"",
            "  @Use(Audit.class)\n  @Query(description = \"Get one invoice\""),
            Severity.RISKY, "RISKY billing_get_invoice: middleware changed: [acme.Guard]" + ARROW + "[acme.Guard, acme.Audit]"),
        row("limit removed (the presenter went away)", edit(base, TOOLS,
            "  @Query(description = \"Get one invoice\", presenter = InvoiceView.class)\n"
                + "  public Invoice getInvoice(",
            "  @Query(description = \"Get one invoice\")\n"
                + "  public String getInvoice("),
            Severity.BREAKING, "RISKY billing_get_invoice: limit removed: agentLimit: 50" + ARROW + "none"),
        row("limit loosened", edit(base, VIEW, "agentLimit = 50", "agentLimit = 100"),
            Severity.RISKY, "RISKY billing_get_invoice: limit loosened: agentLimit: 50" + ARROW + "100"),
        row("cache changed", edit(base, TOOLS, "  @Query(description = \"Get one invoice\"",
            "  @CacheControl(CachePolicy.IMMUTABLE)\n  @Query(description = \"Get one invoice\""),
            Severity.RISKY, "RISKY billing_get_invoice: cache control changed: DEFAULT" + ARROW + "IMMUTABLE"),
        row("invalidation changed", edit(base, TOOLS, "@Invalidates(\"billing.*\")", "@Invalidates({\"billing.*\", \"audit.*\"})"),
            Severity.RISKY, "RISKY billing_void_invoice: invalidation changed: [billing.*]" + ARROW + "[billing.*, audit.*]"),
        row("custom validation changed", customConstraint(edit(base, TOOLS, "getInvoice(@NotBlank String id)",
            "getInvoice(@NotBlank @InvoiceId String id)")),
            Severity.RISKY, "RISKY billing_get_invoice: custom validation (@Constraint/@Valid) changed: false" + ARROW + "true"),
        row("presenter changed", edit(base, TOOLS, "@Query(description = \"Get one invoice\", presenter = InvoiceView.class)",
            "@Query(description = \"Get one invoice\", presenter = InvoiceSummary.class)"),
            Severity.RISKY, "RISKY billing_get_invoice: presenter changed: acme.InvoiceView" + ARROW + "acme.InvoiceSummary"),
        row("action added", edit(base, TOOLS, "  @Action(description = \"Send the invoice by email\")",
            "  @Query(description = \"Count invoices\")\n  public long countInvoices() {\n    return 0;\n  }\n\n"
                + "  @Action(description = \"Send the invoice by email\")"),
            Severity.SAFE, "SAFE billing_count_invoices: tool added"),
        row("required field removed", edit(base, TOOLS, "getInvoice(@NotBlank String id)", "getInvoice()"),
            Severity.SAFE, "SAFE billing_get_invoice: required field removed: id"),
        row("limit tightened", edit(base, VIEW, "agentLimit = 50", "agentLimit = 20"),
            Severity.SAFE, "SAFE billing_get_invoice: limit tightened: agentLimit: 50" + ARROW + "20"),
        row("description text", edit(base, TOOLS, "\"Get one invoice\"", "\"Fetch one invoice\""),
            Severity.COSMETIC, "COSMETIC billing_get_invoice: description changed: \"Get one invoice\"" + ARROW
                + "\"Fetch one invoice\""),
        row("input description text", edit(base, TOOLS, "@Describe(\"Only invoices of this customer\")",
            "@Describe(\"Filter by customer\")"), Severity.COSMETIC,
            "COSMETIC billing_list_invoices: description of input customer changed: \"Only invoices of this customer\""
                + ARROW + "\"Filter by customer\""));
  }

  /** Adds a custom {@code @Constraint} annotation {@code @InvoiceId} and its validator. */
  private static Map<String, String> customConstraint(Map<String, String> files) {
    Map<String, String> out = new java.util.LinkedHashMap<>(files);
    out.put("acme/InvoiceId.java", """
        package acme;

        import jakarta.validation.Constraint;
        import jakarta.validation.Payload;
        import java.lang.annotation.ElementType;
        import java.lang.annotation.Retention;
        import java.lang.annotation.RetentionPolicy;
        import java.lang.annotation.Target;

        @Constraint(validatedBy = InvoiceIdValidator.class)
        @Target({ElementType.PARAMETER, ElementType.FIELD})
        @Retention(RetentionPolicy.RUNTIME)
        public @interface InvoiceId {
          String message() default "is not an invoice id";
          Class<?>[] groups() default {};
          Class<? extends Payload>[] payload() default {};
        }
        """);
    out.put("acme/InvoiceIdValidator.java", """
        package acme;

        import jakarta.validation.ConstraintValidator;
        import jakarta.validation.ConstraintValidatorContext;

        public final class InvoiceIdValidator implements ConstraintValidator<InvoiceId, String> {
          @Override
          public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || value.startsWith("INV-");
          }
        }
        """);
    return out;
  }

  private static Arguments row(String rule, Map<String, String> after, Severity max, String line) {
    return Arguments.of(rule, after, max, line);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void eachRuleHasItsSeverityAndTheMaximumDecides(String rule, Map<String, String> afterSources, Severity max,
      String line, @org.junit.jupiter.api.io.TempDir Path dir) {
    Contract after = Connectors.contract(Connectors.compile(afterSources, dir), LockProfile.defaults());
    Drift drift = Drift.between(before, after);

    assertThat(drift.changes()).extracting(Change::line).as(drift.report()).contains(line);
    assertThat(drift.maxSeverity()).as(drift.report()).contains(max);
    // Any drift fails by default; a threshold above the maximum lets it pass, at the maximum fails.
    assertThat(drift.fails(null)).isTrue();
    assertThat(drift.fails(max)).isTrue();
    if (max != Severity.BREAKING) {
      assertThat(drift.fails(Severity.values()[max.ordinal() + 1])).as(drift.report()).isFalse();
    }
  }
}
