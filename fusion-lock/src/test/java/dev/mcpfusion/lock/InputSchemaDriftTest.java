package dev.mcpfusion.lock;

import static dev.mcpfusion.lock.LockFixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * An {@code @InputSchema} action's document is its whole input: the lockfile records it (in the
 * input digest) and a changed document is drift.
 */
class InputSchemaDriftTest {
  private static final String DOCUMENT = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},"
      + "\"required\":[\"id\"],\"additionalProperties\":false}";

  private static Consumer<Map<String, LockFixtures.Act>> document(String json) {
    return a -> {
      a.get("get_invoice").fields.clear();
      a.get("get_invoice").inputSchema = json;
    };
  }

  @Test
  void theSameDocumentIsNoDrift() {
    Drift drift = Drift.between(contract(document(DOCUMENT)), contract(document(DOCUMENT)));
    assertThat(drift.changes()).isEmpty();
  }

  @Test
  void aChangedDocumentIsRiskyDrift() {
    String looser = DOCUMENT.replace(",\"additionalProperties\":false", "");
    Drift drift = Drift.between(contract(document(DOCUMENT)), contract(document(looser)));
    assertThat(drift.report()).isEqualTo("RISKY billing_get_invoice: input schema document changed");
    assertThat(drift.fails(null)).isTrue();
  }

  @Test
  void theLockfileRecordsTheDocument() {
    String written = Lockfile.write(contract(document(DOCUMENT)));
    String other = Lockfile.write(contract(document(DOCUMENT.replace("\"string\"", "\"integer\""))));
    assertThat(written).isNotEqualTo(other);
  }
}
