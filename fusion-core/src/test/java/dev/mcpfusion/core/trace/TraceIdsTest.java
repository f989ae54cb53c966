package dev.mcpfusion.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class TraceIdsTest {
  @Test
  void generatedIdsAreValidAndDistinct() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String trace = TraceIds.newTraceId();
      String span = TraceIds.newSpanId();
      assertThat(TraceIds.isValidTraceId(trace)).as(trace).isTrue();
      assertThat(TraceIds.isValidSpanId(span)).as(span).isTrue();
      assertThat(seen.add(trace)).isTrue();
      assertThat(TraceContext.isValidTraceparent("00-" + trace + "-" + span + "-01")).isTrue();
    }
  }

  @Test
  void validationIsStrict() {
    assertThat(TraceIds.isValidTraceId("0".repeat(32))).isFalse();
    assertThat(TraceIds.isValidSpanId("0".repeat(16))).isFalse();
    assertThat(TraceIds.isValidSpanId("0".repeat(15) + "1")).isTrue();
    assertThat(TraceIds.isValidSpanId("0".repeat(15) + "A")).isFalse();
    assertThat(TraceIds.isValidTraceId(null)).isFalse();
  }

  @Property
  void anyStringThatParsesReproducesItselfExactly(@ForAll @StringLength(max = 70) String s) {
    TraceContext c = TraceContext.parse(s, null, null);
    if (c.hasParent()) {
      assertThat(c.traceparent()).isEqualTo(s);
    } else {
      assertThat(c).isEqualTo(TraceContext.EMPTY);
    }
  }

  @Property
  void aOneCharacterMutationOfAValidParentIsStillExactOrRejected(
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 54) int position,
      @ForAll @net.jqwik.api.constraints.CharRange(from = ' ', to = '~') char replacement) {
    String valid = "00-" + TraceIds.newTraceId() + "-" + TraceIds.newSpanId() + "-01";
    String mutated = valid.substring(0, position) + replacement + valid.substring(position + 1);
    TraceContext c = TraceContext.parse(mutated, null, null);
    boolean hexPosition = position >= 3 && position != 35 && position != 52;
    boolean stillValid = (position < 2 && replacement == '0')
        || (hexPosition && ((replacement >= '0' && replacement <= '9') || (replacement >= 'a' && replacement <= 'f')))
        || ((position == 2 || position == 35 || position == 52) && replacement == '-');
    if (stillValid) {
      assertThat(c.traceparent()).isEqualTo(mutated);
    } else {
      assertThat(c).isEqualTo(TraceContext.EMPTY);
    }
  }

  @Property
  void generatedParentsAlwaysParse(@ForAll boolean sampled) {
    String tp = "00-" + TraceIds.newTraceId() + "-" + TraceIds.newSpanId() + (sampled ? "-01" : "-00");
    TraceContext c = TraceContext.parse(tp, null, null);
    assertThat(c.traceparent()).isEqualTo(tp);
    assertThat(c.sampled()).isEqualTo(sampled);
  }
}
