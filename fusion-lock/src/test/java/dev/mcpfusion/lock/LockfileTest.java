package dev.mcpfusion.lock;

import static dev.mcpfusion.lock.LockFixtures.billing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.spi.Verb;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LockfileTest {

  @Test
  void smallRouterHasThisExactLockfile() {
    ActionDescriptor ping = new ActionDescriptor("ping", "ping", "Check the server answers",
        Verb.ACTION, false, false, true, false,
        List.of(new FieldDescriptor("echo", "{\"type\":\"string\",\"description\":\"Text to send back\"}",
            false, "Text to send back", false)),
        List.of(), null, ResultShape.VALUE, dev.mcpfusion.core.spi.ElementKind.NONE,
        "{\"type\":\"string\"}", CachePolicy.DEFAULT, List.of(), List.of(), List.of(), false);
    RouterDescriptor health = new RouterDescriptor("health", "Health checks", Object.class,
        List.of(), List.of(ping), List.of());

    String text = Lockfile.write(Contract.of(List.of(health), LockProfile.defaults()));

    String tool = "{\"actions\":{\"ping\":{\"cache\":\"DEFAULT\",\"customValidation\":false,\"description\":\"Check the server answers\","
        + "\"destructive\":false,\"idempotent\":true,\"inputSchema\":\"" + digestOfEcho() + "\","
        + "\"inputs\":{\"echo\":{\"descriptions\":{\"echo\":\"Text to send back\"},\"required\":false,"
        + "\"schema\":{\"type\":\"string\"}}},\"invalidates\":[],\"limits\":{},\"middleware\":[],"
        + "\"openWorld\":false,\"readOnly\":false,\"required\":[],\"result\":\"VALUE\","
        + "\"resultSchema\":{\"type\":\"string\"},\"verb\":\"ACTION\"}},"
        + "\"router\":\"health\"}";
    String toolDigest = Canonical.digest(Json.parse(tool));
    assertThat(text).isEqualTo("""
        {
          "digest": "%s",
          "lockfileVersion": 1,
          "profile": {
            "exposition": "FLAT",
            "middleware": [],
            "separator": "_"
          },
          "tools": {
            "health_ping": {
              "actions": {
                "ping": {
                  "cache": "DEFAULT",
                  "customValidation": false,
                  "description": "Check the server answers",
                  "destructive": false,
                  "idempotent": true,
                  "inputSchema": "%s",
                  "inputs": {
                    "echo": {
                      "descriptions": {
                        "echo": "Text to send back"
                      },
                      "required": false,
                      "schema": {
                        "type": "string"
                      }
                    }
                  },
                  "invalidates": [],
                  "limits": {},
                  "middleware": [],
                  "openWorld": false,
                  "readOnly": false,
                  "required": [],
                  "result": "VALUE",
                  "resultSchema": {
                    "type": "string"
                  },
                  "verb": "ACTION"
                }
              },
              "digest": "%s",
              "router": "health"
            }
          }
        }
        """.formatted(Contract.of(List.of(health), LockProfile.defaults()).digest(), digestOfEcho(),
        toolDigest));
    assertThat(toolDigest).matches("sha256:[0-9a-f]{64}");
  }

  private static String digestOfEcho() {
    return Canonical.digest(Json.parse(
        "{\"properties\":{\"echo\":{\"type\":\"string\",\"description\":\"Text to send back\"}},\"required\":[]}"));
  }

  @Test
  void computingTwiceGivesByteIdenticalText() {
    String first = Lockfile.write(Contract.of(List.of(billing()), LockProfile.defaults()));
    String second = Lockfile.write(Contract.of(List.of(billing()), LockProfile.defaults()));
    assertThat(second).isEqualTo(first);
  }

  @Test
  void routerOrderDoesNotChangeTheFile() {
    RouterDescriptor other = new RouterDescriptor("audit", "Audit trail", Object.class, List.of(),
        billing().actions(), List.of());
    String ab = Lockfile.write(Contract.of(List.of(billing(), other), LockProfile.defaults()));
    String ba = Lockfile.write(Contract.of(List.of(other, billing()), LockProfile.defaults()));
    assertThat(ab).isEqualTo(ba);
  }

  @Test
  void keysAreSortedAtEveryLevelWithTwoSpaceIndentAndTrailingNewline() {
    String text = Lockfile.write(Contract.of(List.of(billing()),
        new LockProfile(Exposition.GROUPED, "_", List.of("com.acme.Audit"))));
    assertThat(text).endsWith("}\n").doesNotEndWith("\n\n").doesNotContain("\r").doesNotContain("\t");
    assertSorted(Json.parse(text));
    for (String line : text.split("\n")) {
      int spaces = line.length() - line.stripLeading().length();
      assertThat(spaces % 2).as("indent of %s", line).isZero();
    }
    assertThat(text).contains("\n  \"lockfileVersion\": 1,\n");
  }

  private static void assertSorted(Object node) {
    if (node instanceof Map<?, ?> map) {
      List<String> keys = new ArrayList<>();
      map.keySet().forEach(k -> keys.add((String) k));
      assertThat(keys).isSorted();
      map.values().forEach(LockfileTest::assertSorted);
    } else if (node instanceof List<?> list) {
      list.forEach(LockfileTest::assertSorted);
    }
  }

  @Test
  void readingTheTextBackGivesTheSameContractAndText() {
    Contract contract = Contract.of(List.of(billing()), LockProfile.defaults().withMiddleware(LockFixtures.AuditLog.class));
    String text = Lockfile.write(contract);
    Contract read = Lockfile.read(text);
    assertThat(read).isEqualTo(contract);
    assertThat(Lockfile.write(read)).isEqualTo(text);
    assertThat(Drift.between(read, contract).isEmpty()).isTrue();
  }

  @Test
  void aNewProjectsSeedIsCanonicalRecognisedAndRecordsNoContract() {
    assertThat(Lockfile.SEED).isEqualTo(Canonical.pretty(Json.parse(Lockfile.SEED)));
    assertThat(Lockfile.isSeed(Lockfile.SEED)).isTrue();
    assertThat(Lockfile.isSeed(Lockfile.write(Contract.of(List.of(billing()), LockProfile.defaults()))))
        .isFalse();
    assertThat(Lockfile.isSeed("{}\n")).isFalse();
    assertThat(Lockfile.isSeed("<<<<<<< HEAD")).isFalse();
    assertThatThrownBy(() -> Lockfile.read(Lockfile.SEED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mcpfusion.lock is a new project's seed and records no contract yet; run the"
            + " check goal once (mvn verify) to write it, then commit it");
  }

  @Test
  void anActionsTitleIsRecordedOnlyWhenSetAndReadBack() {
    String untitled = Lockfile.write(LockFixtures.contract(a -> { }));
    assertThat(untitled).doesNotContain("\"title\"");
    Contract titled = LockFixtures.contract(a -> a.get("get_invoice").title = "Get invoice");
    String text = Lockfile.write(titled);
    assertThat(text).containsOnlyOnce("\"title\": \"Get invoice\"");
    Contract read = Lockfile.read(text);
    assertThat(read).isEqualTo(titled);
    assertThat(read.tools().get("billing_get_invoice").actions().get("get_invoice").title())
        .isEqualTo("Get invoice");
    // A lockfile written before titles existed reads as untitled: nothing drifts.
    assertThat(Drift.between(Lockfile.read(untitled), LockFixtures.contract(a -> { })).isEmpty()).isTrue();
  }

  @Test
  void everyDigestIsSha256Hex() {
    Contract contract = Contract.of(List.of(billing()), LockProfile.defaults());
    assertThat(contract.digest()).matches("sha256:[0-9a-f]{64}");
    contract.tools().values().forEach(t -> assertThat(t.digest()).matches("sha256:[0-9a-f]{64}"));
  }

  @Test
  void flatExposesOneToolPerActionWithTheSeparator() {
    Contract flat = Contract.of(List.of(billing()), new LockProfile(Exposition.FLAT, "-", List.of()));
    assertThat(flat.tools().keySet()).containsExactly("billing-get_invoice", "billing-list_invoices", "billing-void_invoice");
    assertThat(flat.tools().get("billing-get_invoice").description()).isNull();
  }

  @Test
  void groupedExposesOneToolPerRouterWithItsDescription() {
    Contract grouped = Contract.of(List.of(billing()), new LockProfile(Exposition.GROUPED, "_", List.of()));
    assertThat(grouped.tools().keySet()).containsExactly("billing");
    ToolContract tool = grouped.tools().get("billing");
    assertThat(tool.description()).isEqualTo("Invoices: list, inspect and void them");
    assertThat(tool.actions().keySet()).containsExactly("get_invoice", "list_invoices", "void_invoice");
  }

  @Test
  void actionRecordsHintsInputsPresenterRulesLimitAndChain() {
    Contract contract = Contract.of(List.of(billing(acts -> acts.get("void_invoice").middleware.add(LockFixtures.AuditLog.class))),
        LockProfile.defaults().withMiddleware(LockFixtures.AuditLog.class));
    ActionContract v = contract.tools().get("billing_void_invoice").actions().get("void_invoice");
    assertThat(v.verb()).isEqualTo(Verb.MUTATION);
    assertThat(v.destructive()).isTrue();
    assertThat(v.readOnly()).isFalse();
    assertThat(v.requiredFields()).containsExactly("id");
    assertThat(v.inputs().get("id").schema()).isEqualTo(Json.parse("{\"minLength\":1,\"type\":\"string\"}"));
    assertThat(v.middleware()).containsExactly(LockFixtures.AuditLog.class.getName(),
        LockFixtures.TenantGuard.class.getName(), LockFixtures.AuditLog.class.getName());
    assertThat(v.invalidates()).containsExactly("billing.*");
    assertThat(v.limits()).containsExactly(Map.entry("agentLimit", 50L));
    assertThat(v.presenter().name()).isEqualTo(LockFixtures.InvoiceView.class.getName());
    assertThat(v.presenter().fields()).containsExactly("id", "totalCents");
    assertThat(v.presenter().rules()).containsExactly("id: Invoice ID, e.g. INV-0042",
        "totalCents: Total in integer cents", "Money is in integer cents.");
    assertThat(v.presenter().rulesDigest()).isEqualTo(Canonical.digest(v.presenter().rules()));
    assertThat(v.presenter().dynamicRules()).isFalse();
    assertThat(contract.tools().get("billing_list_invoices").actions().get("list_invoices").cache())
        .isEqualTo(CachePolicy.NO_STORE);
  }

  @Test
  void limitsTheDescriptorsDoNotCarryAreAbsentNotInvented() {
    Contract contract = Contract.of(List.of(billing(acts -> acts.get("get_invoice").presenter = null)),
        LockProfile.defaults());
    assertThat(contract.tools().get("billing_get_invoice").actions().get("get_invoice").limits()).isEmpty();
    assertThat(contract.tools().get("billing_void_invoice").actions().get("void_invoice").limits())
        .containsOnlyKeys("agentLimit");
    assertThat(Lockfile.write(contract)).doesNotContain("concurrency").doesNotContain("timeout")
        .doesNotContain("egressBytes");
  }

  @Test
  void aRulesMethodOnTheViewMarksDynamicRules() {
    Contract contract = Contract.of(List.of(billing(acts -> acts.get("get_invoice").presenter.viewType =
        LockFixtures.DynamicView.class)), LockProfile.defaults());
    assertThat(contract.tools().get("billing_get_invoice").actions().get("get_invoice").presenter().dynamicRules())
        .isTrue();
  }

  @Test
  void aHandEditedLockfileIsRejectedWithTheFix() {
    String text = Lockfile.write(Contract.of(List.of(billing()), LockProfile.defaults()));
    String edited = text.replace("\"agentLimit\": 50", "\"agentLimit\": 500");
    assertThatThrownBy(() -> Lockfile.read(edited))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not match its content")
        .hasMessageContaining("run the lock goal again");
  }

  @Test
  void aMalformedLockfileNamesThePath() {
    String text = Lockfile.write(Contract.of(List.of(billing()), LockProfile.defaults()));
    assertThatThrownBy(() -> Lockfile.read(text.replace("\"verb\": \"QUERY\"", "\"verb\": \"QUERIES\"")))
        .hasMessageContaining("expected one of [QUERY, MUTATION, ACTION] but was 'QUERIES' at $.tools.billing_get_invoice.actions.get_invoice.verb");
    assertThatThrownBy(() -> Lockfile.read(text.replace("\"lockfileVersion\": 1", "\"lockfileVersion\": 2")))
        .hasMessageContaining("lockfileVersion 2");
    assertThatThrownBy(() -> Lockfile.read("<<<<<<< HEAD\n"))
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void twoRoutersExposingOneToolNameAreRejected() {
    RouterDescriptor a = billing();
    assertThatThrownBy(() -> Contract.of(List.of(a, a), LockProfile.defaults()))
        .hasMessageContaining("Two routers expose a tool named \"billing_list_invoices\"");
  }

  @Test
  void separatorOutsideMcpToolNamesIsRejected() {
    assertThatThrownBy(() -> new LockProfile(Exposition.FLAT, ".", List.of()))
        .hasMessageContaining("separator must be \"_\" or \"-\"");
  }
}
