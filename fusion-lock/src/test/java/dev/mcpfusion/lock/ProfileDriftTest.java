package dev.mcpfusion.lock;

import static dev.mcpfusion.lock.LockFixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.lock.LockFixtures.Act;
import dev.mcpfusion.core.spi.FieldDescriptor;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A fillable profile input in the lockfile, and its drift property by property. */
class ProfileDriftTest {
  private static final String CUSTOMER =
      "\"customer\":{\"type\":\"string\",\"maxLength\":80,\"description\":\"Customer name\"}";
  private static final String STATUS = "\"status\":{\"type\":\"string\",\"enum\":[\"OPEN\",\"PAID\"]}";

  /** {@code changes}: the "update" profile of an invoice, with the given properties. */
  private static FieldDescriptor changes(String profile, String required, String... properties) {
    String schema = "{\"type\":\"object\",\"properties\":{" + String.join(",", properties) + "}"
        + (required.isEmpty() ? "" : ",\"required\":[" + required + "]")
        + ",\"additionalProperties\":false,\"description\":\"An invoice\"}";
    return new FieldDescriptor("changes", schema, !required.isEmpty(), "An invoice", false, profile);
  }

  private static Consumer<Map<String, Act>> with(FieldDescriptor field) {
    return a -> a.get("void_invoice").fields.add(field);
  }

  private static final FieldDescriptor BASE = changes("update", "", CUSTOMER, STATUS);

  static Stream<Arguments> rules() {
    return Stream.of(
        Arguments.of("optional property becomes fillable", changes("update", "", CUSTOMER, STATUS,
            "\"note\":{\"type\":\"string\"}"), Severity.SAFE,
            "SAFE billing_void_invoice: optional field added: changes.note (fillable in \"update\")"),
        Arguments.of("required property becomes fillable", changes("update", "\"note\"", CUSTOMER,
            STATUS, "\"note\":{\"type\":\"string\"}"), Severity.BREAKING,
            "BREAKING billing_void_invoice: required field added: changes (was optional)\n"
                + "BREAKING billing_void_invoice: required field added: changes.note (fillable in \"update\")"),
        Arguments.of("property no longer fillable", changes("update", "", CUSTOMER), Severity.BREAKING,
            "BREAKING billing_void_invoice: optional field removed: changes.status (no longer fillable in \"update\")"),
        Arguments.of("constraint changed", changes("update", "",
            "\"customer\":{\"type\":\"string\",\"maxLength\":40,\"description\":\"Customer name\"}", STATUS),
            Severity.RISKY,
            "RISKY billing_void_invoice: input constraints changed: changes.customer:"
                + " {\"maxLength\":80,\"type\":\"string\"} \u2192 {\"maxLength\":40,\"type\":\"string\"}"),
        Arguments.of("property type changed", changes("update", "", CUSTOMER,
            "\"status\":{\"type\":\"string\",\"enum\":[\"OPEN\",\"PAID\",\"VOID\"]}"), Severity.BREAKING,
            "BREAKING billing_void_invoice: input type changed: changes.status:"
                + " {\"enum\":[\"OPEN\",\"PAID\"],\"type\":\"string\"} \u2192 {\"enum\":[\"OPEN\",\"PAID\",\"VOID\"],\"type\":\"string\"}"),
        Arguments.of("profile renamed", changes("edit", "", CUSTOMER, STATUS), Severity.BREAKING,
            "BREAKING billing_void_invoice: input profile changed: changes: \"update\" \u2192 \"edit\""),
        Arguments.of("description changed", changes("update", "",
            "\"customer\":{\"type\":\"string\",\"maxLength\":80,\"description\":\"Billed customer\"}", STATUS),
            Severity.COSMETIC,
            "COSMETIC billing_void_invoice: description of input changes.customer changed:"
                + " \"Customer name\" \u2192 \"Billed customer\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void eachProfileChangeHasItsSeverityAndLine(String rule, FieldDescriptor after, Severity severity,
      String line) {
    Drift drift = Drift.between(contract(with(BASE)), contract(with(after)));
    assertThat(drift.report()).isEqualTo(line);
    assertThat(drift.maxSeverity()).contains(severity);
  }

  @Test
  void theLockfileRecordsTheProfileAndReadsItBack() {
    Contract live = contract(with(BASE));
    String text = Lockfile.write(live);
    assertThat(text).contains("\"profile\": \"update\"");
    assertThat(Lockfile.read(text)).isEqualTo(live);
    assertThat(Drift.check(text, live).isEmpty()).isTrue();
    assertThat(live.tools().get("billing_void_invoice").actions().get("void_invoice").inputs()
        .get("changes").profile()).isEqualTo("update");
  }

  @Test
  void aFieldWithoutAProfileWritesNoProfileKey() {
    assertThat(Lockfile.write(contract(a -> { }))).doesNotContain("\"profile\": \"");
  }

  @Test
  void aPlainRecordInputBecomingAProfileIsReported() {
    FieldDescriptor plain = new FieldDescriptor("changes", BASE.schemaJson(), false, "An invoice", false);
    Drift drift = Drift.between(contract(with(plain)), contract(with(BASE)));
    assertThat(drift.report()).isEqualTo(
        "BREAKING billing_void_invoice: input profile changed: changes: none \u2192 \"update\"");
  }
}
