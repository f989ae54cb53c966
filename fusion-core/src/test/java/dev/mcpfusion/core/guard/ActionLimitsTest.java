package dev.mcpfusion.core.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.core.CallLimits;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ActionLimitsTest {
  @Limits(maxConcurrent = 8, queue = 16, timeoutMs = 5_000)
  static final class Routed {
    @Limits(timeoutMs = 100)
    public void fast() {}

    public void plain() {}

    @Limits(maxConcurrent = 2)
    public void own() {}

    @Limits(queue = -5, maxEgressBytes = 10)
    public void wrong() {}
  }

  static final class Bare {
    public void plain() {}
  }

  private static final CallLimits SERVER = CallLimits.none().maxConcurrent(64).queue(4)
      .timeout(Duration.ofSeconds(30)).maxEgressBytes(65_536);

  private static ActionLimits resolve(Class<?> type, String method, List<ActionLimits.Invalid> problems)
      throws Exception {
    Method m = type.getDeclaredMethod(method);
    return ActionLimits.resolve(SERVER, type, m, type.getSimpleName() + "." + method, problems);
  }

  @Test
  void theMostSpecificDeclarationWinsFieldByField() throws Exception {
    List<ActionLimits.Invalid> problems = new ArrayList<>();
    assertThat(resolve(Routed.class, "fast", problems))
        .isEqualTo(new ActionLimits(8, 16, 100, 65_536, "router"));
    assertThat(resolve(Routed.class, "plain", problems))
        .isEqualTo(new ActionLimits(8, 16, 5_000, 65_536, "router"));
    assertThat(resolve(Routed.class, "own", problems))
        .isEqualTo(new ActionLimits(2, 16, 5_000, 65_536, "method"));
    assertThat(resolve(Bare.class, "plain", problems))
        .isEqualTo(new ActionLimits(64, 4, 30_000, 65_536, "server"));
    assertThat(problems).isEmpty();
  }

  @Test
  void nothingSetMeansNoLimitAndAGateWithoutQueueHasNone() throws Exception {
    ActionLimits none = ActionLimits.resolve(CallLimits.none(), Bare.class,
        Bare.class.getDeclaredMethod("plain"), "Bare.plain", new ArrayList<>());
    assertThat(none).isEqualTo(ActionLimits.NONE);
    assertThat(none.any()).isFalse();
    ActionLimits gated = ActionLimits.resolve(CallLimits.none().maxConcurrent(3), Bare.class,
        Bare.class.getDeclaredMethod("plain"), "Bare.plain", new ArrayList<>());
    assertThat(gated.queue()).isZero();
    assertThat(gated.named()).isEqualTo(Map.of("maxConcurrent", 3L, "queue", 0L));
  }

  @Test
  void anOutOfRangeValueIsReportedOnceWithItsElement() throws Exception {
    List<ActionLimits.Invalid> problems = new ArrayList<>();
    resolve(Routed.class, "wrong", problems);
    resolve(Routed.class, "wrong", problems);
    assertThat(problems).containsExactly(
        new ActionLimits.Invalid("Routed.wrong", "queue", -5, 0),
        new ActionLimits.Invalid("Routed.wrong", "maxEgressBytes", 10, 1024));
  }
}
