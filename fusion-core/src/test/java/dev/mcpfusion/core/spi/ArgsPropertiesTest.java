package dev.mcpfusion.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class ArgsPropertiesTest {
  @Property(tries = 500)
  void int32EitherKeepsTheExactValueOrReportsTheRange(@ForAll long n) {
    Problems p = new Problems();
    Integer decoded = Args.int32(n, "n", p);
    if (n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) {
      assertThat(decoded).isEqualTo((int) n);
      assertThat(p.isEmpty()).isTrue();
    } else {
      assertThat(decoded).isNull();
      assertThat(p.list()).containsExactly(
          new Problem("n", "must be between -2147483648 and 2147483647", n, null));
    }
  }

  @Property(tries = 500)
  void int64AcceptsAnIntegralValueInAnyNumberType(@ForAll long n) {
    Problems p = new Problems();
    assertThat(Args.int64(BigInteger.valueOf(n), "n", p)).isEqualTo(n);
    assertThat(Args.int64(new BigDecimal(n).setScale(2), "n", p)).isEqualTo(n);
    assertThat(p.isEmpty()).isTrue();
  }

  @Property(tries = 300)
  void aRealFractionIsNeverAnInteger(@ForAll long whole, @ForAll("fraction") int cents) {
    Problems p = new Problems();
    BigDecimal value = BigDecimal.valueOf(whole).add(BigDecimal.valueOf(cents, 2));
    assertThat(Args.int64(value, "n", p)).isNull();
    assertThat(p.list()).extracting(Problem::message).containsExactly("expected integer but was number");
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<Integer> fraction() {
    return net.jqwik.api.Arbitraries.integers().between(1, 99);
  }

  @Property(tries = 300)
  void decimalKeepsTheExactValue(@ForAll BigDecimal d) {
    Problems p = new Problems();
    assertThat(Args.decimal(d, "d", p)).isEqualTo(d);
    assertThat(p.isEmpty()).isTrue();
  }
}
