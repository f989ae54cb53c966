package dev.mcpfusion.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ValuesTest {
  enum Status { OPEN, PAID }

  @Test
  void nullStaysNull() {
    assertThat(Values.asString(null, "k")).isNull();
    assertThat(Values.asInt(null, "k")).isNull();
    assertThat(Values.asEnum(null, Status.class, "k")).isNull();
    assertThat(Values.asList(null, "k")).isNull();
  }

  @Test
  void textFromScalars() {
    assertThat(Values.asString("x", "k")).isEqualTo("x");
    assertThat(Values.asString(Status.PAID, "k")).isEqualTo("PAID");
    assertThat(Values.asString(12L, "k")).isEqualTo("12");
    assertThat(Values.asString(new BigDecimal("1E+3"), "k")).isEqualTo("1000");
    assertThat(Values.asString(true, "k")).isEqualTo("true");
    assertThat(Values.asString(LocalDate.of(2026, 1, 31), "k")).isEqualTo("2026-01-31");
    assertThatThrownBy(() -> Values.asString(List.of(), "name"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Row key 'name': expected string but was ");
  }

  @Test
  void integersConvertExactlyOrFail() {
    assertThat(Values.asInt(5L, "k")).isEqualTo(5);
    assertThat(Values.asInt(new BigDecimal("5.00"), "k")).isEqualTo(5);
    assertThat(Values.asLong(5, "k")).isEqualTo(5L);
    assertThat(Values.asShort(5, "k")).isEqualTo((short) 5);
    assertThat(Values.asByte(5, "k")).isEqualTo((byte) 5);
    assertThat(Values.asBigInteger(5.0, "k")).isEqualTo(BigInteger.valueOf(5));
    assertThatThrownBy(() -> Values.asInt("5", "qty"))
        .hasMessage("Row key 'qty': expected int but was String");
    assertThatThrownBy(() -> Values.asInt(1.5, "qty"))
        .hasMessage("Row key 'qty': expected int but was the fraction 1.5");
    assertThatThrownBy(() -> Values.asInt(3_000_000_000L, "qty"))
        .hasMessage("Row key 'qty': 3000000000 is out of range for int");
  }

  @Test
  void floatingAndDecimal() {
    assertThat(Values.asDouble(new BigDecimal("1.25"), "k")).isEqualTo(1.25);
    assertThat(Values.asFloat(2L, "k")).isEqualTo(2f);
    assertThat(Values.asDecimal(0.1, "k")).isEqualTo(new BigDecimal("0.1"));
    assertThat(Values.asDecimal("12.50", "k")).isEqualTo(new BigDecimal("12.50"));
    assertThatThrownBy(() -> Values.asDouble("1", "k")).hasMessage("Row key 'k': expected double but was String");
    assertThatThrownBy(() -> Values.asDecimal("abc", "k")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void booleansEnumsAndIdentifiers() {
    assertThat(Values.asBoolean(true, "k")).isTrue();
    assertThat(Values.asBoolean("false", "k")).isFalse();
    assertThat(Values.asEnum("PAID", Status.class, "k")).isEqualTo(Status.PAID);
    assertThat(Values.asEnum(Status.OPEN, Status.class, "k")).isEqualTo(Status.OPEN);
    assertThatThrownBy(() -> Values.asEnum("paid", Status.class, "status"))
        .hasMessage("Row key 'status': expected one of [OPEN, PAID] but was String 'paid'");
    assertThatThrownBy(() -> Values.asBoolean(1, "k")).hasMessage("Row key 'k': expected boolean but was Integer");
    UUID u = UUID.randomUUID();
    assertThat(Values.asUuid(u, "k")).isSameAs(u);
    assertThat(Values.asUuid(u.toString(), "k")).isEqualTo(u);
  }

  @Test
  void timesFromTheirTypesAndIsoText() {
    Instant t = Instant.parse("2026-01-31T10:15:30Z");
    assertThat(Values.asDate("2026-01-31", "k")).isEqualTo(LocalDate.of(2026, 1, 31));
    assertThat(Values.asInstant("2026-01-31T10:15:30Z", "k")).isEqualTo(t);
    assertThat(Values.asInstant(t.atOffset(ZoneOffset.ofHours(3)), "k")).isEqualTo(t);
    assertThat(Values.asInstant(java.util.Date.from(t), "k")).isEqualTo(t);
    assertThat(Values.asOffsetDateTime(t, "k")).isEqualTo(OffsetDateTime.of(2026, 1, 31, 10, 15, 30, 0, ZoneOffset.UTC));
    assertThatThrownBy(() -> Values.asDate(5L, "d")).hasMessage("Row key 'd': expected date but was Long");
  }

  @Test
  void containers() {
    Map<String, Object> m = Map.of("a", 1);
    assertThat(Values.asMap(m, "k")).isSameAs(m);
    assertThat(Values.asList(Set.of(1), "k")).isEqualTo(List.of(1));
    assertThat(Values.asList(new int[] {1, 2}, "k")).isEqualTo(List.of(1, 2));
    assertThat(Values.asList(new String[] {"a"}, "k")).isEqualTo(List.of("a"));
    assertThatThrownBy(() -> Values.asMap("x", "k")).hasMessage("Row key 'k': expected object but was String");
  }

  @Test
  void requireRejectsMissingValues() {
    assertThat(Values.require(1, "k")).isEqualTo(1);
    assertThatThrownBy(() -> Values.require(null, "totalCents"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Row key 'totalCents' is missing");
  }
}
