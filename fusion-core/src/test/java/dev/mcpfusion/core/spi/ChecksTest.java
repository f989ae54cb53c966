package dev.mcpfusion.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ChecksTest {
  private final Problems p = new Problems();

  private List<String> messages() {
    return p.list().stream().map(Problem::message).toList();
  }

  @Test
  void nullValuesAreNeverChecked() {
    Checks.notBlank(null, "a", p);
    Checks.notEmpty(null, "a", p);
    Checks.size(null, 1, 2, "a", p);
    Checks.min(null, 1, "a", p);
    Checks.positive(null, "a", p);
    Checks.pattern(null, Pattern.compile("x"), "x", "a", p);
    Checks.email(null, "a", p);
    assertThat(p.isEmpty()).isTrue();
  }

  @Test
  void aFieldWithAProblemIsNotCheckedAgain() {
    p.add("id", "expected string but was number", 5L);
    Checks.notBlank(" ", "id", p);
    Checks.size("", 1, 10, "id", p);
    assertThat(messages()).containsExactly("expected string but was number");
  }

  @Test
  void blankAndEmpty() {
    Checks.notBlank(" \t", "name", p);
    Checks.notBlank("x", "ok", p);
    Checks.notEmpty("", "s", p);
    Checks.notEmpty(List.of(), "l", p);
    Checks.notEmpty(Map.of(), "m", p);
    Checks.notEmpty(new int[0], "a", p);
    Checks.notEmpty(List.of(1), "ok2", p);
    assertThat(p.list()).extracting(Problem::path).containsExactly("name", "s", "l", "m", "a");
    assertThat(messages()).containsExactly("must not be blank", "must not be empty",
        "must not be empty", "must not be empty", "must not be empty");
    assertThat(p.list().get(0).sent()).isEqualTo(" \t");
  }

  @Test
  void sizeMessagesNameTheUnitAndTheBounds() {
    Checks.size("", 1, 10, "name", p);
    Checks.size(List.of(), 1, 10, "lines", p);
    Checks.size("ab", 3, Integer.MAX_VALUE, "code", p);
    Checks.size("abcd", 0, 3, "code2", p);
    Checks.size(List.of(1, 2), 0, 1, "one", p);
    Checks.size(List.of(), 1, Integer.MAX_VALUE, "some", p);
    Checks.size("abc", 2, 2, "pair", p);
    Checks.size(new String[] {"a", "b", "c"}, 0, 2, "arr", p);
    Checks.size(Map.of("a", 1), 2, 5, "map", p);
    assertThat(messages()).containsExactly(
        "must be between 1 and 10 characters",
        "must have between 1 and 10 items",
        "must be at least 3 characters",
        "must be at most 3 characters",
        "must have at most 1 item",
        "must have at least 1 item",
        "must be exactly 2 characters",
        "must have at most 2 items",
        "must have between 2 and 5 items");
  }

  @Test
  void sizeWithinBoundsPassesAndCountsCharactersNotCodeUnits() {
    Checks.size("😀😀", 1, 2, "emoji", p);
    Checks.size(List.of(1), 1, 1, "l", p);
    assertThat(p.isEmpty()).isTrue();
  }

  @Test
  void minAndMaxCompareExactly() {
    Checks.min(0L, 1, "a", p);
    Checks.min(new BigDecimal("0.999999999999999999999"), 1, "b", p);
    Checks.min(1, 1, "ok", p);
    Checks.max(10L, 9, "c", p);
    Checks.max(new BigInteger("9223372036854775808"), Long.MAX_VALUE, "d", p);
    Checks.max(9.0, 9, "ok2", p);
    assertThat(p.list()).extracting(Problem::path).containsExactly("a", "b", "c", "d");
    assertThat(messages()).containsExactly(
        "must be greater than or equal to 1", "must be greater than or equal to 1",
        "must be less than or equal to 9", "must be less than or equal to 9223372036854775807");
  }

  @Test
  void decimalBoundsInclusiveAndExclusive() {
    Checks.decimalMin(new BigDecimal("0.5"), "0.5", false, "a", p);
    Checks.decimalMin(new BigDecimal("0.4"), "0.5", true, "b", p);
    Checks.decimalMin(new BigDecimal("0.5"), "0.5", true, "ok", p);
    Checks.decimalMax(new BigDecimal("10"), "10", false, "c", p);
    Checks.decimalMax(10.01, "10", true, "d", p);
    Checks.decimalMax(10L, "10.00", true, "ok2", p);
    assertThat(p.list()).extracting(Problem::path).containsExactly("a", "b", "c", "d");
    assertThat(messages()).containsExactly("must be greater than 0.5",
        "must be greater than or equal to 0.5", "must be less than 10",
        "must be less than or equal to 10");
  }

  @Test
  void signChecks() {
    Checks.positive(0L, "a", p);
    Checks.positiveOrZero(-1L, "b", p);
    Checks.negative(0, "c", p);
    Checks.negativeOrZero(new BigDecimal("0.01"), "d", p);
    Checks.positive(new BigDecimal("0.0001"), "ok", p);
    Checks.negative(-0.5, "ok2", p);
    Checks.positiveOrZero(0, "ok3", p);
    Checks.negativeOrZero(0L, "ok4", p);
    assertThat(messages()).containsExactly("must be greater than 0",
        "must be greater than or equal to 0", "must be less than 0", "must be less than or equal to 0");
  }

  @Test
  void nanFailsEveryBoundAndInfinitiesOrderBeyondIt() {
    Checks.min(Double.NaN, 0, "a", p);
    Checks.max(Double.NaN, 0, "b", p);
    Checks.max(Double.POSITIVE_INFINITY, 5, "c", p);
    Checks.min(Double.NEGATIVE_INFINITY, 5, "d", p);
    Checks.min(Double.POSITIVE_INFINITY, 5, "ok", p);
    assertThat(p.list()).extracting(Problem::path).containsExactly("a", "b", "c", "d");
  }

  @Test
  void patternMismatchCarriesTheRegexAndAHint() {
    Checks.pattern("abc", Pattern.compile("INV-\\d+"), "INV-\\d+", "id", p);
    Checks.pattern("INV-12", Pattern.compile("INV-\\d+"), "INV-\\d+", "ok", p);
    Checks.pattern("xINV-12", Pattern.compile("INV-\\d+"), "INV-\\d+", "whole", p);
    assertThat(p.list()).containsExactly(
        new Problem("id", "must match \"INV-\\d+\"", "abc", "Expected format: INV-\\d+."),
        new Problem("whole", "must match \"INV-\\d+\"", "xINV-12", "Expected format: INV-\\d+."));
  }

  @Test
  void emailMustBeWellFormed() {
    for (String good : List.of("a@b.co", "first.last+tag@example.com", "user@localhost",
        "ü@bücher.de", "x@[127.0.0.1]")) {
      Checks.email(good, good, p);
    }
    assertThat(p.isEmpty()).as("valid addresses").isTrue();
    for (String bad : List.of("plain", "@b.co", "a@", "a@b..co", "a..b@c.d", "a b@c.d", "a@-b.co", "a@b.co.")) {
      Checks.email(bad, bad, p);
    }
    assertThat(p.list()).hasSize(8).extracting(Problem::message).containsOnly("must be a well-formed email address");
  }
}
