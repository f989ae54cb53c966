package dev.mcpfusion.core.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A redactor fitted to a closed view ({@link Redactor#forView}) walks only the fields that can hold
 * text; on every tree the view can produce, that gives the same result and the same count as the
 * whole walk.
 */
class ViewFieldsPropertiesTest {
  private static final List<String> FRAGMENTS = List.of("INV-0042", "hello", "Ada", "2026-12-01",
      "ada@example.com", "4111 1111 1111 1111", "GB82 WEST 1234 5698 7654 32", "123-45-6789",
      "+44 20 7946 0958", "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc", "12", "-", "");

  @Property(tries = 400)
  void theViewsTextFieldsGiveTheWholeWalksResult(@ForAll("views") Map<String, Object> data,
      @ForAll boolean partial, @ForAll boolean unrelatedPath) {
    Redaction policy = (unrelatedPath ? Redaction.paths("*.cardNumber") : Redaction.none())
        .detect(Detector.values()).mask(partial ? Mask.PARTIAL : Mask.FULL);
    Redactor whole = Redactions.compile(policy);
    Redactor fitted = whole.forView(RedactorTest.CLOSED_VIEW, List.of());
    Tally byFields = new Tally();
    Tally walked = new Tally();
    Object expected = whole.tree(data, walked);
    assertThat(fitted.viewTree(data, byFields)).isEqualTo(expected);
    assertThat(byFields.count()).isEqualTo(walked.count());
  }

  /**
   * What the pipeline asks before it walks at all ({@link Redactor#viewClean}): when it vouches for a
   * tree, the whole walk masks nothing there. Each tree is asked twice: the second time the strings
   * the walk found clean are remembered.
   */
  @Property(tries = 400)
  void aTreeVouchedForWithoutAWalkHoldsNothingToMask(@ForAll("views") Map<String, Object> data,
      @ForAll boolean unrelatedPath) {
    Redaction policy = (unrelatedPath ? Redaction.paths("*.cardNumber") : Redaction.none())
        .detect(Detector.values());
    Redactor whole = Redactions.compile(policy);
    Redactor fitted = whole.forView(RedactorTest.CLOSED_VIEW, List.of());
    Tally walked = new Tally();
    boolean vouched = fitted.viewClean(data);
    boolean masked = whole.tree(data, walked) != data;
    assertThat(masked).isEqualTo(walked.count() > 0);
    if (vouched) {
      assertThat(masked).as("vouched for, yet the walk masks something").isFalse();
    }
    fitted.viewTree(data, new Tally());
    if (fitted.viewClean(data)) {
      assertThat(masked).as("vouched for after a walk, yet it masks something").isFalse();
    }
  }

  @Provide
  Arbitrary<Map<String, Object>> views() {
    Arbitrary<String> text = Arbitraries.of(FRAGMENTS).list().ofMaxSize(3)
        .map(parts -> String.join(" ", parts));
    Arbitrary<Map<String, Object>> contact = text.map(email -> {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("email", email);
      return c;
    });
    return Combinators.combine(text, Arbitraries.longs(), Arbitraries.of(true, false),
            Arbitraries.of("OPEN", "PAID"), Arbitraries.of("ops@example.com", "none"),
            text.list().ofMaxSize(3), contact, Arbitraries.integers().between(0, 127))
        .as((id, total, paid, status, owner, tags, c, present) -> {
          // A presenter writes every field, or (with _select) some of them.
          Map<String, Object> view = new LinkedHashMap<>();
          Object[] values = {id, total, paid, status, owner, tags, c};
          String[] names = {"id", "total", "paid", "status", "owner", "tags", "contact"};
          for (int i = 0; i < names.length; i++) {
            if ((present & (1 << i)) != 0) {
              view.put(names[i], values[i]);
            }
          }
          return view;
        });
  }
}
