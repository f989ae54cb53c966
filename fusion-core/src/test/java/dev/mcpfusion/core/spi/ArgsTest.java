package dev.mcpfusion.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ArgsTest {
  enum Status { DRAFT, OPEN, PAID, VOID }

  private final Problems p = new Problems();

  private void assertOneProblem(String path, String message, Object sent) {
    assertThat(p.list()).containsExactly(new Problem(path, message, sent, null));
  }

  @Test
  void pathsReadAsTheAgentWroteThem() {
    assertThat(Args.path("", "id")).isEqualTo("id");
    assertThat(Args.path(null, "id")).isEqualTo("id");
    assertThat(Args.path("lines[2]", "qty")).isEqualTo("lines[2].qty");
    assertThat(Args.index("lines", 2)).isEqualTo("lines[2]");
    assertThat(Args.path(Args.index(Args.path("order", "lines"), 0), "qty")).isEqualTo("order.lines[0].qty");
  }

  @Test
  void nullIsNoProblemForAnyDecoder() {
    assertThat(Args.string(null, "a", p)).isNull();
    assertThat(Args.bool(null, "a", p)).isNull();
    assertThat(Args.int32(null, "a", p)).isNull();
    assertThat(Args.int64(null, "a", p)).isNull();
    assertThat(Args.decimal(null, "a", p)).isNull();
    assertThat(Args.float64(null, "a", p)).isNull();
    assertThat(Args.object(null, "a", p)).isNull();
    assertThat(Args.array(null, "a", p)).isNull();
    assertThat(Args.enumValue(null, "a", Status.class, p)).isNull();
    assertThat(Args.uuid(null, "a", p)).isNull();
    assertThat(Args.date(null, "a", p)).isNull();
    assertThat(Args.instant(null, "a", p)).isNull();
    assertThat(p.isEmpty()).isTrue();
  }

  @Test
  void wrongJsonTypeNamesExpectedAndActualType() {
    assertThat(Args.string(5L, "id", p)).isNull();
    assertOneProblem("id", "expected string but was number", 5L);
  }

  @Test
  void everyJsonTypeHasItsName() {
    assertThat(Args.jsonType("x")).isEqualTo("string");
    assertThat(Args.jsonType(1L)).isEqualTo("number");
    assertThat(Args.jsonType(new BigDecimal("1.5"))).isEqualTo("number");
    assertThat(Args.jsonType(true)).isEqualTo("boolean");
    assertThat(Args.jsonType(List.of())).isEqualTo("array");
    assertThat(Args.jsonType(Map.of())).isEqualTo("object");
    assertThat(Args.jsonType(null)).isEqualTo("null");
  }

  @Test
  void containerDecodersCheckTheirType() {
    Map<String, Object> obj = Map.of("a", 1);
    assertThat(Args.object(obj, "o", p)).isSameAs(obj);
    assertThat(Args.array(List.of(1), "l", p)).isEqualTo(List.of(1));
    assertThat(Args.array(Set.of(1), "s", p)).isEqualTo(List.of(1));
    assertThat(p.isEmpty()).isTrue();

    Args.object(List.of(), "o", p);
    Args.array("x", "l", p);
    Args.bool("true", "b", p);
    assertThat(p.list()).extracting(Problem::message).containsExactly(
        "expected object but was array", "expected array but was string",
        "expected boolean but was string");
  }

  @Test
  void integralDecodersAcceptEveryIntegralNumberType() {
    assertThat(Args.int32(7, "n", p)).isEqualTo(7);
    assertThat(Args.int32(7L, "n", p)).isEqualTo(7);
    assertThat(Args.int32(BigInteger.valueOf(7), "n", p)).isEqualTo(7);
    assertThat(Args.int64(Long.MAX_VALUE, "n", p)).isEqualTo(Long.MAX_VALUE);
    assertThat(Args.int16((short) 3, "n", p)).isEqualTo((short) 3);
    assertThat(Args.int8(-128L, "n", p)).isEqualTo((byte) -128);
    assertThat(Args.bigInteger(new BigInteger("123456789012345678901234567890"), "n", p))
        .isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(p.isEmpty()).isTrue();
  }

  @Test
  void integralDecodersAcceptIntegralValuesWrittenWithAFraction() {
    assertThat(Args.int32(3.0, "n", p)).isEqualTo(3);
    assertThat(Args.int32(new BigDecimal("3.00"), "n", p)).isEqualTo(3);
    assertThat(Args.int64(new BigDecimal("1E+3"), "n", p)).isEqualTo(1000L);
    assertThat(Args.int32(new BigDecimal("0.000"), "n", p)).isEqualTo(0);
    assertThat(p.isEmpty()).isTrue();
  }

  @Test
  void integralDecodersRejectRealFractions() {
    assertThat(Args.int32(new BigDecimal("1.5"), "qty", p)).isNull();
    assertOneProblem("qty", "expected integer but was number", new BigDecimal("1.5"));
  }

  @Test
  void integralDecodersRejectFractionsGivenAsDouble() {
    assertThat(Args.int64(1.5, "qty", p)).isNull();
    assertOneProblem("qty", "expected integer but was number", 1.5);
  }

  @Test
  void integralDecodersRejectStrings() {
    assertThat(Args.int32("5", "qty", p)).isNull();
    assertOneProblem("qty", "expected integer but was string", "5");
  }

  @Test
  void outOfRangeIntegersAreAClearProblem() {
    assertThat(Args.int32(2_147_483_648L, "n", p)).isNull();
    assertThat(Args.int8(200L, "b", p)).isNull();
    assertThat(Args.int16(new BigDecimal("40000.0"), "s", p)).isNull();
    assertThat(Args.int64(new BigInteger("9223372036854775808"), "l", p)).isNull();
    assertThat(p.list()).extracting(Problem::message).containsExactly(
        "must be between -2147483648 and 2147483647",
        "must be between -128 and 127",
        "must be between -32768 and 32767",
        "must be between -9223372036854775808 and 9223372036854775807");
  }

  @Test
  void hugeExponentIsRejectedWithoutExpandingIt() {
    assertThat(Args.int32(new BigDecimal("1E+1000000000"), "n", p)).isNull();
    assertOneProblem("n", "must be between -2147483648 and 2147483647", new BigDecimal("1E+1000000000"));
  }

  @Test
  void floatingDecodersAcceptAnyNumber() {
    assertThat(Args.float64(new BigDecimal("0.1"), "x", p)).isEqualTo(0.1);
    assertThat(Args.float64(3L, "x", p)).isEqualTo(3.0);
    assertThat(Args.float32(new BigDecimal("0.5"), "x", p)).isEqualTo(0.5f);
    assertThat(Args.decimal(new BigDecimal("12.50"), "x", p)).isEqualTo(new BigDecimal("12.50"));
    assertThat(Args.decimal(0.1, "x", p)).isEqualTo(new BigDecimal("0.1"));
    assertThat(Args.decimal(12L, "x", p)).isEqualTo(new BigDecimal("12"));
    assertThat(p.isEmpty()).isTrue();
  }

  @Test
  void floatingDecodersRejectOutOfRangeAndNonNumbers() {
    Args.float32(new BigDecimal("1E+39"), "f", p);
    Args.float64(new BigDecimal("1E+309"), "d", p);
    Args.decimal("1.5", "m", p);
    Args.float64(Double.NaN, "nan", p);
    assertThat(p.list()).extracting(Problem::message).containsExactly(
        "must be between -3.4028235E38 and 3.4028235E38",
        "must be between -1.7976931348623157E308 and 1.7976931348623157E308",
        "expected number but was string",
        "must be a finite number");
  }

  @Test
  void enumsDecodeByExactNameAndListTheValues() {
    assertThat(Args.enumValue("PAID", "status", Status.class, p)).isEqualTo(Status.PAID);
    assertThat(p.isEmpty()).isTrue();
    assertThat(Args.enumValue("paid", "status", Status.class, p)).isNull();
    assertOneProblem("status", "must be one of [DRAFT, OPEN, PAID, VOID]", "paid");
  }

  @Test
  void enumOfWrongTypeIsATypeProblem() {
    Args.enumValue(1L, "status", Status.class, p);
    assertOneProblem("status", "expected string but was number", 1L);
  }

  @Test
  void uuidsMustBeCanonical() {
    assertThat(Args.uuid("123e4567-e89b-12d3-a456-426614174000", "u", p))
        .isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
    assertThat(Args.uuid("1-2-3-4-5", "u", p)).isNull();
    assertOneProblem("u", "must be a valid UUID", "1-2-3-4-5");
  }

  @Test
  void datesAndDateTimesUseIsoForms() {
    assertThat(Args.date("2026-01-31", "d", p)).isEqualTo(LocalDate.of(2026, 1, 31));
    assertThat(Args.instant("2026-01-31T10:15:30Z", "t", p)).isEqualTo(Instant.parse("2026-01-31T10:15:30Z"));
    assertThat(Args.instant("2026-01-31T12:15:30+02:00", "t", p)).isEqualTo(Instant.parse("2026-01-31T10:15:30Z"));
    assertThat(Args.offsetDateTime("2026-01-31T10:15:30+02:00", "o", p))
        .isEqualTo(OffsetDateTime.of(2026, 1, 31, 10, 15, 30, 0, ZoneOffset.ofHours(2)));
    assertThat(p.isEmpty()).isTrue();

    Args.date("31/01/2026", "d", p);
    Args.date("2026-02-30", "d2", p);
    Args.instant("2026-01-31T10:15:30", "t", p);
    Args.offsetDateTime("yesterday", "o", p);
    assertThat(p.list()).extracting(Problem::message).containsExactly(
        "must be a date like 2026-01-31",
        "must be a date like 2026-01-31",
        "must be a date-time like 2026-01-31T10:15:30Z",
        "must be a date-time like 2026-01-31T10:15:30Z");
  }

  @Test
  void requiredReportsMissingOnlyWhenNoOtherProblemExists() {
    Args.required(null, "id", p);
    assertOneProblem("id", "is required", Problems.MISSING);

    Problems other = new Problems();
    Object decoded = Args.string(5L, "id", other);
    Args.required(decoded, "id", other);
    assertThat(other.list()).extracting(Problem::message).containsExactly("expected string but was number");

    Problems fine = new Problems();
    Args.required("x", "id", fine);
    assertThat(fine.isEmpty()).isTrue();
  }

  @Test
  void unknownKeysSuggestANearName() {
    Map<String, Object> obj = new LinkedHashMap<>();
    obj.put("id", "INV-1");
    obj.put("idd", "INV-2");
    obj.put("Status", "OPEN");
    obj.put("total", 5L);
    obj.put("zzz", List.of(1));
    Args.rejectUnknown(obj, "", List.of("id", "status", "totalCents"), p);

    assertThat(p.list()).containsExactly(
        new Problem("idd", "is not an accepted field (did you mean \"id\"?)", "INV-2", null),
        new Problem("Status", "is not an accepted field (did you mean \"status\"?)", "OPEN", null),
        new Problem("total", "is not an accepted field (did you mean \"totalCents\"?)", 5L, null),
        new Problem("zzz", "is not an accepted field", List.of(1), null));
  }

  @Test
  void unknownNestedKeysCarryTheirPath() {
    Args.rejectUnknown(Map.of("qtty", 1L), "lines[2]", List.of("qty", "sku"), p);
    assertOneProblem("lines[2].qtty", "is not an accepted field (did you mean \"qty\"?)", 1L);
  }

  @Test
  void nearNamesNeedSomethingInCommon() {
    assertThat(Args.nearName("x", List.of("id"))).isNull();
    assertThat(Args.nearName("ID", List.of("id"))).isEqualTo("id");
    assertThat(Args.nearName("invoice", List.of("invoiceId", "id"))).isEqualTo("invoiceId");
    assertThat(Args.nearName("statsu", List.of("id", "status"))).isEqualTo("status");
    assertThat(Args.nearName("completely_else", List.of("id", "status"))).isNull();
  }
}
