package dev.mcpfusion.lock;

import static dev.mcpfusion.lock.LockFixtures.billing;
import static dev.mcpfusion.lock.LockFixtures.contract;
import static dev.mcpfusion.lock.LockFixtures.field;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.lock.LockFixtures.Act;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DriftTest {

  /** Each row: one edit of the billing router, and the one report line it must produce. */
  static Stream<Arguments> rules() {
    return Stream.of(
        row("action removed", a -> a.remove("void_invoice"),
            "BREAKING billing_void_invoice: tool removed"),
        row("required field added", a -> a.get("get_invoice").fields.add(field("currency", "string", true, "")),
            "BREAKING billing_get_invoice: required field added: currency"),
        row("optional field made required", a -> a.get("list_invoices").fields.set(0, new dev.mcpfusion.core.spi.FieldDescriptor("status",
            "{\"type\":\"string\",\"description\":\"Only invoices in this status\"}", true, "Only invoices in this status", false)),
            "BREAKING billing_list_invoices: required field added: status (was optional)"),
        row("input type changed", a -> a.get("get_invoice").fields.set(0, field("id", "integer", true, "")),
            "BREAKING billing_get_invoice: input type changed: id: {\"minLength\":1,\"type\":\"string\"} \u2192 {\"type\":\"integer\"}"),
        row("egress fields changed", a -> a.get("get_invoice").presenter.fields.add("customer"),
            "BREAKING billing_get_invoice: egress fields changed: [id, totalCents] \u2192 [id, totalCents, customer]"),
        row("egress type changed", a -> a.get("get_invoice").presenter.totalType = "number",
            null /* line carries digests */),
        row("rules changed", a -> a.get("get_invoice").presenter.extraRules.set(0, "Money is in dollars."),
            "BREAKING billing_get_invoice: rules changed: [\"Money is in integer cents.\"] \u2192 [\"Money is in dollars.\"]"),
        // The fixture swaps the view class to get a @Rules method, so the presenter name changes too.
        row("dynamic rules added", a -> a.get("get_invoice").presenter.viewType = LockFixtures.DynamicView.class,
            "RISKY billing_get_invoice: presenter changed: " + LockFixtures.InvoiceView.class.getName()
                + " \u2192 " + LockFixtures.DynamicView.class.getName()
                + "\nBREAKING billing_get_invoice: dynamic rules added (@Rules method)"),
        // As above, swapping the view class is how the fixture gains or loses @Ui methods.
        row("ui blocks added", a -> a.get("get_invoice").presenter.viewType = LockFixtures.UiView.class,
            "RISKY billing_get_invoice: presenter changed: " + LockFixtures.InvoiceView.class.getName()
                + " \u2192 " + LockFixtures.UiView.class.getName()
                + "\nSAFE billing_get_invoice: UI blocks added (@Ui chart, table)"),
        row("readOnly flipped", a -> a.get("get_invoice").readOnly = false,
            "BREAKING billing_get_invoice: readOnly flipped: true \u2192 false"),
        row("destructive flipped", a -> a.get("void_invoice").destructive = false,
            "BREAKING billing_void_invoice: destructive flipped: true \u2192 false"),
        row("result shape changed", a -> a.get("get_invoice").result = ResultShape.OPTIONAL,
            "BREAKING billing_get_invoice: result shape changed: SINGLE \u2192 OPTIONAL"),
        row("idempotent flipped", a -> a.get("get_invoice").idempotent = true,
            "RISKY billing_get_invoice: idempotent flipped: false \u2192 true"),
        row("openWorld flipped", a -> a.get("get_invoice").openWorld = true,
            "RISKY billing_get_invoice: openWorld flipped: false \u2192 true"),
        row("middleware changed", a -> a.get("get_invoice").middleware.add(LockFixtures.AuditLog.class),
            "RISKY billing_get_invoice: middleware changed: [" + LockFixtures.TenantGuard.class.getName()
                + "] \u2192 [" + LockFixtures.TenantGuard.class.getName() + ", " + LockFixtures.AuditLog.class.getName() + "]"),
        row("input constraints changed", a -> a.get("get_invoice").fields.set(0,
            new dev.mcpfusion.core.spi.FieldDescriptor("id", "{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^(?:INV-\\\\d+)$\"}", true, "", false)),
            "RISKY billing_get_invoice: input constraints changed: id: {\"minLength\":1,\"type\":\"string\"} \u2192 {\"minLength\":1,\"pattern\":\"^(?:INV-\\\\d+)$\",\"type\":\"string\"}"),
        row("limit loosened", a -> a.get("get_invoice").presenter.limit = 100,
            "RISKY billing_get_invoice: limit loosened: agentLimit: 50 \u2192 100"),
        row("cache changed", a -> a.get("get_invoice").cache = CachePolicy.IMMUTABLE,
            "RISKY billing_get_invoice: cache control changed: DEFAULT \u2192 IMMUTABLE"),
        row("invalidation changed", a -> a.get("void_invoice").invalidates.add("audit.*"),
            "RISKY billing_void_invoice: invalidation changed: [billing.*] \u2192 [billing.*, audit.*]"),
        row("presenter changed", a -> a.get("get_invoice").presenter.viewType = OtherView.class,
            "RISKY billing_get_invoice: presenter changed: " + LockFixtures.InvoiceView.class.getName()
                + " \u2192 " + OtherView.class.getName()),
        row("custom validation changed", a -> a.get("get_invoice").beanValidation = true,
            "RISKY billing_get_invoice: custom validation (@Constraint/@Valid) changed: false \u2192 true"),
        row("scope required", a -> a.get("void_invoice").scopes.add("invoices:write"),
            "BREAKING billing_void_invoice: scope required: (none) \u2192 \"invoices:write\""),
        row("verb changed", a -> a.get("get_invoice").verb = Verb.ACTION,
            "RISKY billing_get_invoice: verb changed: QUERY \u2192 ACTION"),
        row("action added", a -> a.put("refund", new Act("refund", "Refund a paid invoice")),
            "SAFE billing_refund: tool added"),
        row("required field removed", a -> a.get("get_invoice").fields.clear(),
            "SAFE billing_get_invoice: required field removed: id"),
        row("optional field added", a -> a.get("get_invoice").fields.add(field("note", "string", false, "")),
            "SAFE billing_get_invoice: optional field added: note"),
        row("limit tightened", a -> a.get("get_invoice").presenter.limit = 20,
            "SAFE billing_get_invoice: limit tightened: agentLimit: 50 \u2192 20"),
        row("description changed", a -> a.get("get_invoice").description = "Fetch one invoice",
            "COSMETIC billing_get_invoice: description changed: \"Get one invoice\" \u2192 \"Fetch one invoice\""),
        row("title changed", a -> a.get("get_invoice").title = "Get invoice",
            "COSMETIC billing_get_invoice: title changed: \"\" \u2192 \"Get invoice\""),
        row("input description changed", a -> a.get("list_invoices").fields.set(0, field("status", "string", false, "Status filter")),
            "COSMETIC billing_list_invoices: description of input status changed: \"Only invoices in this status\" \u2192 \"Status filter\""));
  }

  record OtherView(String id, long totalCents) {}

  private static Arguments row(String rule, Consumer<Map<String, Act>> edit, String line) {
    return Arguments.of(rule, edit, line);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void eachRuleHasItsSeverityAndLine(String rule, Consumer<Map<String, Act>> edit, String line) {
    Drift drift = Drift.between(contract(a -> { }), contract(edit));
    Severity expected = expectedSeverity(rule);
    if (line == null) {
      assertThat(drift.changes()).as(drift.report()).hasSize(1);
    } else {
      assertThat(drift.report()).isEqualTo(line);
    }
    assertThat(drift.maxSeverity()).contains(expected);
    assertThat(drift.fails(null)).isTrue();
  }

  @Test
  void removingAUiMethodIsRiskyAndTheLockfileKeepsTheNames() {
    Consumer<Map<String, Act>> ui = a -> a.get("get_invoice").presenter.viewType = LockFixtures.UiView.class;
    Drift drift = Drift.between(contract(ui), contract(a -> { }));
    assertThat(drift.report()).contains("RISKY billing_get_invoice: UI blocks removed (@Ui chart, table)");
    // Written and read back: the names survive; a view without @Ui methods writes no "ui" key.
    Contract withUi = contract(ui);
    String text = Lockfile.write(withUi);
    assertThat(text).contains("\"ui\": [\n");
    assertThat(Drift.between(Lockfile.read(text), withUi).changes()).isEmpty();
    assertThat(Lockfile.write(contract(a -> { }))).doesNotContain("\"ui\"");
  }

  private static Severity expectedSeverity(String rule) {
    return switch (rule) {
      case "action removed", "required field added", "optional field made required", "input type changed",
          "egress fields changed", "egress type changed", "rules changed", "dynamic rules added",
          "readOnly flipped", "destructive flipped", "result shape changed", "scope required" ->
          Severity.BREAKING;
      case "idempotent flipped", "openWorld flipped", "middleware changed", "input constraints changed",
          "limit loosened", "cache changed", "invalidation changed", "presenter changed", "verb changed",
          "custom validation changed" ->
          Severity.RISKY;
      case "ui blocks added" -> Severity.RISKY;
      case "action added", "required field removed", "optional field added", "limit tightened" -> Severity.SAFE;
      case "description changed", "input description changed", "title changed" ->
          Severity.COSMETIC;
      default -> throw new AssertionError("no severity for rule " + rule);
    };
  }

  @Test
  void removingAScopeIsRiskyAndTheLockfileKeepsTheScopes() {
    Consumer<Map<String, Act>> scoped = a -> a.get("void_invoice").scopes.addAll(
        List.of("invoices:write", "invoices:admin"));
    Drift drift = Drift.between(contract(scoped), contract(a -> { }));
    assertThat(drift.report()).isEqualTo(
        "RISKY billing_void_invoice: scope no longer required: \"invoices:admin\" \u2192 (none)\n"
            + "RISKY billing_void_invoice: scope no longer required: \"invoices:write\" \u2192 (none)");
    assertThat(drift.maxSeverity()).contains(Severity.RISKY);
    // Written (sorted) and read back; an action without scopes writes no "scopes" key.
    Contract withScopes = contract(scoped);
    String text = Lockfile.write(withScopes);
    assertThat(text).contains("\"scopes\": [\n");
    assertThat(text.indexOf("invoices:admin")).isLessThan(text.indexOf("invoices:write"));
    assertThat(Drift.between(Lockfile.read(text), withScopes).changes()).isEmpty();
    assertThat(Lockfile.write(contract(a -> { }))).doesNotContain("\"scopes\"");
  }

  @Test
  void identicalContractsHaveNoDrift() {
    Drift drift = Drift.between(contract(a -> { }), contract(a -> { }));
    assertThat(drift.isEmpty()).isTrue();
    assertThat(drift.maxSeverity()).isEmpty();
    assertThat(drift.fails(null)).isFalse();
    assertThat(drift.report()).isEmpty();
  }

  @Test
  void maxSeverityDecidesAgainstTheThreshold() {
    Drift drift = Drift.between(contract(a -> { }), contract(a -> {
      a.get("get_invoice").description = "Fetch one invoice";
      a.get("get_invoice").presenter.limit = 100;
    }));
    assertThat(drift.maxSeverity()).contains(Severity.RISKY);
    assertThat(drift.fails(null)).isTrue();
    assertThat(drift.fails(Severity.COSMETIC)).isTrue();
    assertThat(drift.fails(Severity.RISKY)).isTrue();
    assertThat(drift.fails(Severity.BREAKING)).isFalse();
    assertThat(drift.report()).isEqualTo("""
        COSMETIC billing_get_invoice: description changed: "Get one invoice" \u2192 "Fetch one invoice"
        RISKY billing_get_invoice: limit loosened: agentLimit: 50 \u2192 100""");
  }

  @Test
  void cosmeticDriftStillFailsByDefault() {
    Drift drift = Drift.between(contract(a -> { }), contract(a -> a.get("get_invoice").description = "Fetch"));
    assertThat(drift.fails(null)).isTrue();
    assertThat(drift.fails(Severity.SAFE)).isFalse();
  }

  @Test
  void aDescribedViewPropertyChangesTheRulesAndTheRulesWin() {
    Drift drift = Drift.between(contract(a -> { }),
        contract(a -> a.get("get_invoice").presenter.totalDescription = "Total in dollars"));
    assertThat(drift.report()).isEqualTo("BREAKING billing_get_invoice: rules changed: "
        + "[\"totalCents: Total in integer cents\"] \u2192 [\"totalCents: Total in dollars\"]");
  }

  @Test
  void aViewDescriptionThatIsNoRuleIsCosmetic() {
    // @Describe(rule = false): the text is in the output schema only.
    LockFixtures.View plain = new LockFixtures.View();
    plain.describedRules = false;
    LockFixtures.View edited = new LockFixtures.View();
    edited.describedRules = false;
    edited.idDescription = "The invoice number";
    Drift drift = Drift.between(contract(a -> a.get("get_invoice").presenter = plain),
        contract(a -> a.get("get_invoice").presenter = edited));
    assertThat(drift.report()).isEqualTo("COSMETIC billing_get_invoice: description of view field id changed: "
        + "\"Invoice ID, e.g. INV-0042\" \u2192 \"The invoice number\"");
  }

  @Test
  void groupedExpositionNamesTheActionInsideTheTool() {
    LockProfile grouped = new LockProfile(Exposition.GROUPED, "_", List.of());
    Contract before = Contract.of(List.of(billing()), grouped);
    Contract after = Contract.of(List.of(billing(a -> {
      a.remove("void_invoice");
      a.get("get_invoice").fields.add(field("currency", "string", true, ""));
    })), grouped);
    assertThat(Drift.between(before, after).report()).isEqualTo("""
        BREAKING billing (action: get_invoice): required field added: currency
        BREAKING billing (action: void_invoice): action removed""");
  }

  @Test
  void changingTheExpositionRenamesEveryTool() {
    Contract flat = Contract.of(List.of(billing()), LockProfile.defaults());
    Contract grouped = Contract.of(List.of(billing()), new LockProfile(Exposition.GROUPED, "_", List.of()));
    Drift drift = Drift.between(flat, grouped);
    assertThat(drift.report()).startsWith("BREAKING server: exposition changed (every tool is renamed): FLAT \u2192 GROUPED\n")
        .contains("SAFE billing: tool added").contains("BREAKING billing_get_invoice: tool removed");
  }

  @Test
  void serverWideMiddlewareIsPartOfEveryChain() {
    Contract before = Contract.of(List.of(billing()), LockProfile.defaults());
    Contract after = Contract.of(List.of(billing()), LockProfile.defaults().withMiddleware(LockFixtures.AuditLog.class));
    Drift drift = Drift.between(before, after);
    assertThat(drift.changes()).hasSize(3).allMatch(c -> c.severity() == Severity.RISKY
        && c.what().equals("middleware changed"));
  }

  @Test
  void routerMiddlewareChangeIsRisky() {
    Drift drift = Drift.between(Contract.of(List.of(billing()), LockProfile.defaults()),
        Contract.of(List.of(billing(a -> { }, List.of())), LockProfile.defaults()));
    assertThat(drift.maxSeverity()).contains(Severity.RISKY);
    assertThat(drift.changes()).hasSize(3);
  }

  @Test
  void theCommittedTextIsComparedByContentThenByBytes() {
    Contract live = contract(a -> { });
    String canonical = Lockfile.write(live);
    assertThat(Drift.check(canonical, live).isEmpty()).isTrue();
    Drift reformatted = Drift.check(canonical.replace("\n", "\r\n"), live);
    assertThat(reformatted.report()).isEqualTo(
        "COSMETIC server: lockfile is not in canonical form (whitespace, key order or line endings)");
    assertThat(reformatted.fails(null)).isTrue();
    Drift changed = Drift.check(canonical, contract(a -> a.remove("get_invoice")));
    assertThat(changed.report()).isEqualTo("BREAKING billing_get_invoice: tool removed");
  }

  @Test
  void severitiesAreOrdered() {
    assertThat(Severity.BREAKING.atLeast(Severity.RISKY)).isTrue();
    assertThat(Severity.SAFE.atLeast(Severity.RISKY)).isFalse();
    assertThat(List.of(Severity.values())).containsExactly(Severity.COSMETIC, Severity.SAFE, Severity.RISKY,
        Severity.BREAKING);
  }
}
