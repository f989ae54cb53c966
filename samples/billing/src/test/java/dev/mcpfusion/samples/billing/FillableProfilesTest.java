package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.ContractLoader;
import dev.mcpfusion.lock.InputField;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.lock.Lockfile;
import dev.mcpfusion.samples.billing.fixtures.DraftTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult.FieldError;
import dev.mcpfusion.testing.ToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code @Input(profile)} on the wire, in both protocol eras: the input schema is exactly the
 * profile's fillable properties, a call builds the model from what was sent, and a property the
 * profile does not accept — {@code @Hidden}, {@code @Guarded} or merely not fillable there — is a
 * validation error, never silently dropped or set.
 */
class FillableProfilesTest {
  private static final String CLASSIC = "2025-11-25";

  private static FusionTester tester(String era) {
    return FusionTester.of(new DraftTools()).protocolVersion(era);
  }

  private static Map<String, Object> args(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], pairs[i + 1]);
    }
    return map;
  }

  private static String schema(FusionTester tester, String tool) {
    for (ToolInfo t : tester.listTools()) {
      if (t.name().equals(tool)) {
        return Json.write(t.inputSchema());
      }
    }
    throw new AssertionError("no tool " + tool);
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void createTakesItsFillablePropertiesAsOneObjectRequiredUnlessOptional(String era) {
    try (FusionTester tester = tester(era)) {
      assertThat(schema(tester, "drafts_create_invoice")).isEqualTo("{\"type\":\"object\","
          + "\"properties\":{\"draft\":{\"type\":\"object\",\"properties\":{"
          + "\"customer\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":80,\"description\":\"Customer name\"},"
          + "\"totalCents\":{\"type\":\"integer\",\"minimum\":0,"
          + "\"description\":\"Total in integer cents\"},"
          + "\"note\":{\"type\":\"string\",\"description\":\"A note for the customer\"}},"
          + "\"required\":[\"customer\",\"totalCents\"],\"additionalProperties\":false,"
          + "\"description\":\"An invoice draft\"}},"
          + "\"required\":[\"draft\"],\"additionalProperties\":false}");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void updateAndFilterTakeTheirPropertiesAllOptional(String era) {
    try (FusionTester tester = tester(era)) {
      assertThat(schema(tester, "drafts_update_invoice")).isEqualTo("{\"type\":\"object\","
          + "\"properties\":{\"id\":{\"type\":\"string\",\"minLength\":1},"
          + "\"changes\":{\"type\":\"object\",\"properties\":{"
          + "\"customer\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":80,\"description\":\"Customer name\"},"
          + "\"totalCents\":{\"type\":\"integer\",\"minimum\":0,"
          + "\"description\":\"Total in integer cents\"},"
          + "\"status\":{\"type\":\"string\",\"enum\":[\"DRAFT\",\"OPEN\",\"PAID\",\"VOID\"],"
          + "\"description\":\"draft, open, paid or void\"}},"
          + "\"additionalProperties\":false,\"description\":\"An invoice draft\"}},"
          + "\"required\":[\"id\"],\"additionalProperties\":false}");
      assertThat(schema(tester, "drafts_find_invoices")).isEqualTo("{\"type\":\"object\","
          + "\"properties\":{\"filter\":{\"type\":\"object\",\"properties\":{"
          + "\"customer\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":80,\"description\":\"Customer name\"},"
          + "\"status\":{\"type\":\"string\",\"enum\":[\"DRAFT\",\"OPEN\",\"PAID\",\"VOID\"],"
          + "\"description\":\"draft, open, paid or void\"}},"
          + "\"additionalProperties\":false,\"description\":\"An invoice draft\"}},"
          + "\"required\":[],\"additionalProperties\":false}");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void createBuildsTheRecordWithUnfilledComponentsNullEmptyOrZero(String era) {
    try (FusionTester tester = tester(era)) {
      ToolResult r = tester.call("drafts", "create_invoice",
          args("draft", args("customer", "ACME", "totalCents", 1200, "note", "Thanks")));
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo("DraftInvoice[id=null, customer=ACME, totalCents=1200,"
          + " status=null, note=Optional[Thanks], webhookSecret=null, tenantId=null]");

      ToolResult noNote = tester.call("drafts", "create_invoice",
          args("draft", args("customer", "ACME", "totalCents", 0)));
      assertThat(noNote.dataText()).isEqualTo("DraftInvoice[id=null, customer=ACME, totalCents=0,"
          + " status=null, note=Optional.empty, webhookSecret=null, tenantId=null]");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void updateLeavesWhatWasNotSentNullAndAPrimitiveAtItsDefault(String era) {
    try (FusionTester tester = tester(era)) {
      ToolResult r = tester.call("drafts", "update_invoice",
          args("id", "INV-7", "changes", args("status", "PAID")));
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo("INV-7 DraftInvoice[id=null, customer=null, totalCents=0,"
          + " status=PAID, note=Optional.empty, webhookSecret=null, tenantId=null]");

      ToolResult nothing = tester.call("drafts", "update_invoice", args("id", "INV-7"));
      assertThat(nothing).isSuccess();
      assertThat(nothing.dataText()).isEqualTo("INV-7 DraftInvoice[id=null, customer=null,"
          + " totalCents=0, status=null, note=Optional.empty, webhookSecret=null, tenantId=null]");
    }
  }

  @Test
  void theLockfileRecordsEachProfileInput() throws Exception {
    Contract contract = Contract.of(List.of(ContractLoader.describeRouter(DraftTools.class)),
        LockProfile.defaults());
    Map<String, InputField> create = contract.tools().get("drafts_create_invoice").actions()
        .get("create_invoice").inputs();
    assertThat(create.get("draft").profile()).isEqualTo("create");
    assertThat(create.get("draft").required()).isTrue();
    assertThat(contract.tools().get("drafts_update_invoice").actions().get("update_invoice")
        .inputs().get("changes").profile()).isEqualTo("update");
    assertThat(contract.tools().get("drafts_update_invoice").actions().get("update_invoice")
        .inputs().get("id").profile()).isNull();
    String text = Lockfile.write(contract);
    assertThat(text).contains("\"profile\": \"create\"", "\"profile\": \"filter\"");
    assertThat(Lockfile.read(text)).isEqualTo(contract);
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void groupedExpositionTakesTheSameNestedObject(String era) {
    try (FusionTester tester = tester(era).exposition(Exposition.GROUPED)) {
      ToolInfo tool = tester.listTools().get(0);
      assertThat(tool.description()).contains("- 'create_invoice': Create an invoice. Requires: draft");
      ToolResult r = tester.call("drafts", "create_invoice",
          args("draft", args("customer", "ACME", "totalCents", 1)));
      assertThat(r.dataText()).isEqualTo("DraftInvoice[id=null, customer=ACME, totalCents=1,"
          + " status=null, note=Optional.empty, webhookSecret=null, tenantId=null]");
      ToolResult hidden = tester.call("drafts", "create_invoice",
          args("draft", args("customer", "ACME", "totalCents", 1, "webhookSecret", "x")));
      assertThat(hidden.fieldErrors())
          .containsExactly(new FieldError("draft.webhookSecret", "is not an accepted field"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void aClassModelIsBuiltThroughItsSettersAndKeepsWhatWasNotSent(String era) {
    try (FusionTester tester = tester(era)) {
      ToolResult created = tester.call("drafts", "create_contact",
          args("contact", args("email", "ada@example.com")));
      assertThat(created.dataText())
          .isEqualTo("DraftContact[email=ada@example.com, priority=0, internalRef=unset]");
      ToolResult updated = tester.call("drafts", "update_contact", args("contact", args("priority", 3)));
      assertThat(updated.dataText()).isEqualTo("DraftContact[email=null, priority=3, internalRef=unset]");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void hiddenGuardedAndUnfillablePropertiesAreRejectedNeverAccepted(String era) {
    try (FusionTester tester = tester(era)) {
      ToolResult r = tester.call("drafts", "create_invoice", args("draft", args(
          "customer", "ACME", "totalCents", 1200,
          "webhookSecret", "whsec_1", "tenantId", "t_other", "id", "INV-1", "status", "PAID")));
      assertThat(r).isError().hasCode("VALIDATION_ERROR");
      assertThat(r.fieldErrors()).containsExactly(
          new FieldError("draft.webhookSecret", "is not an accepted field"),
          new FieldError("draft.tenantId", "is not an accepted field"),
          new FieldError("draft.id", "is not an accepted field"),
          new FieldError("draft.status", "is not an accepted field"));
      assertThat(r.blocks()).containsExactly("<validation_error action=\"drafts/create_invoice\">\n"
          + "<field name=\"draft.webhookSecret\">is not an accepted field. You sent: 'whsec_1'.</field>\n"
          + "<field name=\"draft.tenantId\">is not an accepted field. You sent: 't_other'.</field>\n"
          + "<field name=\"draft.id\">is not an accepted field. You sent: 'INV-1'.</field>\n"
          + "<field name=\"draft.status\">is not an accepted field. You sent: 'PAID'.</field>\n"
          + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
          + "</validation_error>");

      ToolResult update = tester.call("drafts", "update_invoice",
          args("id", "INV-7", "changes", args("tenantId", "t_other")));
      assertThat(update).isError().hasCode("VALIDATION_ERROR");
      assertThat(update.fieldErrors())
          .containsExactly(new FieldError("changes.tenantId", "is not an accepted field"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {CLASSIC, FusionTester.MODERN})
  void missingRequiredPropertiesAndConstraintViolationsGetTheSelfHealingEnvelope(String era) {
    try (FusionTester tester = tester(era)) {
      ToolResult missing = tester.call("drafts", "create_invoice", args("draft", args("note", "x")));
      assertThat(missing).isError().hasCode("VALIDATION_ERROR");
      assertThat(missing.fieldErrors()).extracting(FieldError::path)
          .containsExactly("draft.customer", "draft.totalCents");

      ToolResult noDraft = tester.call("drafts", "create_invoice", args());
      assertThat(noDraft.fieldErrors()).extracting(FieldError::path).containsExactly("draft");

      ToolResult bad = tester.call("drafts", "update_invoice",
          args("id", "INV-7", "changes", args("customer", "", "totalCents", -5)));
      assertThat(bad).isError().hasCode("VALIDATION_ERROR");
      assertThat(bad.fieldErrors()).extracting(FieldError::path)
          .containsExactly("changes.customer", "changes.totalCents");

      ToolResult invariant = tester.call("drafts", "update_invoice",
          args("id", "INV-7", "changes", args("status", "VOID", "totalCents", 500)));
      assertThat(invariant).isError().hasCode("VALIDATION_ERROR");
      assertThat(invariant.fieldErrors()).containsExactly(new FieldError("changes",
          "was rejected by DraftInvoice: a void invoice has no total; send totalCents 0 or leave it out"));
    }
  }
}
