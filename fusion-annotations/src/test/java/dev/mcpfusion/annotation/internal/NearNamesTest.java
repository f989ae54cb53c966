package dev.mcpfusion.annotation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** The one "did you mean" the processor and the runtime share. */
class NearNamesTest {

  @Test
  void distanceCountsInsertionsDeletionsAndSubstitutions() {
    assertThat(NearNames.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(NearNames.distance("", "abc")).isEqualTo(3);
    assertThat(NearNames.distance("abc", "")).isEqualTo(3);
    assertThat(NearNames.distance("statsu", "status")).isEqualTo(2);
    assertThat(NearNames.distance("same", "same")).isZero();
  }

  @Test
  void nearestIsTheClosestWithinTheToleranceIgnoringCase() {
    assertThat(NearNames.nearest("totl", List.of("id", "total"), 2)).isEqualTo("total");
    assertThat(NearNames.nearest("STATUS", List.of("id", "status"), 2)).isEqualTo("status");
    assertThat(NearNames.nearest("customerName", List.of("id", "total"), 4)).isNull();
  }

  @Test
  void aNameWithNothingInCommonIsNeverSuggested() {
    // Two edits turn "x" into "id", but nothing of "x" is left: no suggestion.
    assertThat(NearNames.nearest("x", List.of("id"), 2)).isNull();
  }

  @Test
  void tiesGoToTheFirstCandidate() {
    assertThat(NearNames.nearest("cat", List.of("bat", "cap"), 2)).isEqualTo("bat");
    assertThat(NearNames.nearest("cat", List.of("cap", "bat"), 2)).isEqualTo("cap");
  }

  @Test
  void toleranceIsAThirdOfTheNameAndAtLeastTwo() {
    assertThat(NearNames.tolerance("ab")).isEqualTo(2);
    assertThat(NearNames.tolerance("invoiceNumber")).isEqualTo(4);
  }

  @Property
  void distanceIsAMetric(@ForAll @AlphaChars @StringLength(max = 12) String a,
      @ForAll @AlphaChars @StringLength(max = 12) String b,
      @ForAll @AlphaChars @StringLength(max = 12) String c) {
    assertThat(NearNames.distance(a, b)).isEqualTo(NearNames.distance(b, a));
    assertThat(NearNames.distance(a, a)).isZero();
    assertThat(NearNames.distance(a, c))
        .isLessThanOrEqualTo(NearNames.distance(a, b) + NearNames.distance(b, c));
    assertThat(NearNames.distance(a, b))
        .isBetween(Math.abs(a.length() - b.length()), Math.max(a.length(), b.length()));
  }
}
