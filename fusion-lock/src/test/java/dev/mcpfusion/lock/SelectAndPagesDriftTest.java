package dev.mcpfusion.lock;

import static dev.mcpfusion.lock.LockFixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.lock.LockFixtures.Act;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.ResultShape;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Field selection ({@code _select}) and paging ({@code Page} results) in the lockfile: turning
 * either on is SAFE, turning either off is BREAKING, and both survive a write/read round trip.
 */
class SelectAndPagesDriftTest {
  private static final FieldDescriptor SELECT = new FieldDescriptor("_select",
      "{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"id\",\"totalCents\"]},"
          + "\"description\":\"Return only these fields of each item (all fields when omitted).\"}",
      false, "Return only these fields of each item (all fields when omitted).", false);
  private static final FieldDescriptor CURSOR = LockFixtures.field("cursor", "string", false, "");

  private static final Consumer<Map<String, Act>> SELECTABLE = a -> a.get("get_invoice").fields.add(SELECT);
  private static final Consumer<Map<String, Act>> PAGED = a -> {
    a.get("list_invoices").result = ResultShape.PAGE;
    a.get("list_invoices").fields.add(CURSOR);
  };

  @Test
  void turningSelectOnIsSafe() {
    Drift drift = Drift.between(contract(a -> { }), contract(SELECTABLE));
    assertThat(drift.report()).isEqualTo("SAFE billing_get_invoice: field selection added: _select");
    assertThat(drift.maxSeverity()).contains(Severity.SAFE);
  }

  @Test
  void turningSelectOffIsBreaking() {
    Drift drift = Drift.between(contract(SELECTABLE), contract(a -> { }));
    assertThat(drift.report()).isEqualTo("BREAKING billing_get_invoice: field selection removed:"
        + " _select (an agent that narrows its results now gets a validation error)");
    assertThat(drift.maxSeverity()).contains(Severity.BREAKING);
  }

  @Test
  void aMutationThatStopsOfferingSelectIsBreakingAndNamesTheOptIn() {
    // what a connector compiled when every action of a selectable view offered _select records
    Drift drift = Drift.between(contract(a -> a.get("void_invoice").fields.add(SELECT)),
        contract(a -> { }));
    assertThat(drift.report()).isEqualTo("BREAKING billing_void_invoice: field selection removed:"
        + " _select (an agent that narrows its results now gets a validation error; keep it with"
        + " select = true on the verb)");
    assertThat(drift.maxSeverity()).contains(Severity.BREAKING);
  }

  @Test
  void pagingACollectionIsSafe() {
    Drift drift = Drift.between(contract(a -> { }), contract(PAGED));
    assertThat(drift.report()).isEqualTo(
        "SAFE billing_list_invoices: optional field added: cursor\n"
            + "SAFE billing_list_invoices: paging added: COLLECTION \u2192 PAGE");
    assertThat(drift.maxSeverity()).contains(Severity.SAFE);
  }

  @Test
  void removingPagingIsBreaking() {
    Drift drift = Drift.between(contract(PAGED), contract(a -> { }));
    assertThat(drift.report()).contains("BREAKING billing_list_invoices: paging removed (an agent's"
        + " next cursor stops working): PAGE \u2192 COLLECTION");
    assertThat(drift.maxSeverity()).contains(Severity.BREAKING);
  }

  @Test
  void aPageBecomingASingleItemIsBreakingToo() {
    Drift drift = Drift.between(contract(PAGED), contract(a -> {
      a.get("list_invoices").fields.add(CURSOR);
      a.get("list_invoices").result = ResultShape.SINGLE;
    }));
    assertThat(drift.report()).isEqualTo("BREAKING billing_list_invoices: paging removed (an agent's"
        + " next cursor stops working): PAGE \u2192 SINGLE");
  }

  @Test
  void selectAndPagesRoundTripThroughTheLockfile() {
    Contract live = contract(SELECTABLE.andThen(PAGED));
    String text = Lockfile.write(live);
    assertThat(text).contains("\"result\": \"PAGE\"").contains("\"_select\"");
    Contract read = Lockfile.read(text);
    assertThat(Drift.between(read, live).isEmpty()).as(Drift.between(read, live).report()).isTrue();
  }
}
