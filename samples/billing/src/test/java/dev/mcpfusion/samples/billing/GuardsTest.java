package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.samples.billing.fixtures.GuardedFeatures;
import dev.mcpfusion.samples.billing.fixtures.GuardedTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.ToolResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guards' exact wire text in both protocol eras: SERVER_BUSY, TIMEOUT, PAYLOAD_TOO_LARGE and
 * the summary of a collection cut to fit the byte cap; and a timed-out handler's late result, which
 * must never reach the wire. Prompts, resources and completions get the same gate and deadline,
 * with the same texts, answered as JSON-RPC errors (-32003 busy, -32004 timed out).
 */
class GuardsTest {
  static final String BUSY = """
      <tool_error code="SERVER_BUSY" severity="error">
      <message>[guarded/items] The server is busy: its limit of 1 running and 0 waiting calls is reached.</message>
      <recovery>Wait a moment, then call the tool again with the same arguments.</recovery>
      <retry_after>1 second</retry_after>
      </tool_error>""";

  static final String TIMEOUT = """
      <tool_error code="TIMEOUT" severity="error">
      <message>[guarded/sleepy] The call did not finish within 150 ms and was stopped.</message>
      <recovery>Call the tool again with a narrower request. If the call changes data, check whether the change happened before repeating it.</recovery>
      </tool_error>""";

  static final String TOO_LARGE = """
      <tool_error code="PAYLOAD_TOO_LARGE" severity="error">
      <message>[guarded/big] The reply is larger than 2048 bytes, the most this tool may send.</message>
      <recovery>Ask for less: narrow the request with filters or request a smaller page. The same request will fail again.</recovery>
      </tool_error>""";

  static final String FIRST_ITEM_TOO_LARGE = """
      <tool_error code="PAYLOAD_TOO_LARGE" severity="error">
      <message>[guarded/items] Even one item of the reply is larger than 2048 bytes, the most this tool may send.</message>
      <recovery>Ask for less: narrow the request with filters or request a smaller page. The same request will fail again.</recovery>
      </tool_error>""";

  static final String CAPPED_SUMMARY = "<ui_passthrough type=\"summary\">\n"
      + "📊 **Summary**: ⚠️ Dataset truncated. 6 shown, 24 withheld to keep the reply under 2048 bytes."
      + " Use filters to narrow results or request a smaller page.\n"
      + "</ui_passthrough>";

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void overCapacityIsServerBusyWithARetryHint(String era) throws Exception {
    GuardedTools tools = new GuardedTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      Thread holder = new Thread(() -> tester.call("guarded", "hold"));
      holder.start();
      assertThat(tools.holding.await(10, TimeUnit.SECONDS)).isTrue();

      ToolResult busy = tester.call("guarded", "items", Map.of("count", 1, "size", 1));

      assertThat(busy.errorText()).isEqualTo(BUSY);
      assertThat(busy.errorCode()).isEqualTo("SERVER_BUSY");
      assertThat(busy.meta().get("mcpfusion/error")).asString().contains("retryAfterSeconds=1");
      tools.release.countDown();
      holder.join(10_000);
      // The slot is free again once the holder returned.
      assertThat(tester.call("guarded", "items", Map.of("count", 1, "size", 1)).isSuccess()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void pastTheDeadlineIsTimeoutAndTheHandlerIsInterrupted(String era) {
    GuardedTools tools = new GuardedTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      ToolResult r = tester.call("guarded", "sleepy");

      assertThat(r.errorText()).isEqualTo(TIMEOUT);
      assertThat(tools.interrupted.get()).isTrue();
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains("interrupted\""));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void timedOutHandlersLateResultNeverReachesTheWire(String era) throws Exception {
    GuardedTools tools = new GuardedTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      // The handler ignores its interrupt and spins until released; it is released only once the
      // TIMEOUT reply is on the wire, so that reply went out at the deadline, not when it returned.
      java.util.concurrent.atomic.AtomicBoolean sawTimeout = new java.util.concurrent.atomic.AtomicBoolean();
      Thread releaser = new Thread(() -> {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < end
            && tester.rawMessages().stream().noneMatch(m -> m.contains("code=\\\"TIMEOUT\\\""))) {
          Thread.onSpinWait();
        }
        sawTimeout.set(tester.rawMessages().stream().anyMatch(m -> m.contains("TIMEOUT")));
        tools.release.countDown();
      });
      releaser.start();

      ToolResult r = tester.call("guarded", "stubborn");
      releaser.join(20_000);

      assertThat(r.errorCode()).isEqualTo("TIMEOUT");
      assertThat(sawTimeout).as("the TIMEOUT was on the wire before the handler returned").isTrue();
      assertThat(tools.stubbornReturned.get()).isTrue();
      assertThat(tools.stubbornRunning.get()).isZero();
      List<String> wire = tester.rawMessages();
      assertThat(wire).noneMatch(m -> m.contains("LATE-RESULT"));
      assertThat(wire.stream().filter(m -> m.contains("\"result\"") && m.contains("stubborn")
          || m.contains("TIMEOUT"))).hasSize(1);
      // The thread that ran the handler carries no interrupt into the next call.
      assertThat(tester.call("guarded", "items", Map.of("count", 1, "size", 1)).isSuccess()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void oneItemOverTheCapIsPayloadTooLarge(String era) {
    try (FusionTester tester = FusionTester.of(new GuardedTools()).protocolVersion(era)) {
      assertThat(tester.call("guarded", "big", Map.of("size", 3000)).errorText()).isEqualTo(TOO_LARGE);
      assertThat(tester.call("guarded", "items", Map.of("count", 3, "size", 3000)).errorText())
          .isEqualTo(FIRST_ITEM_TOO_LARGE);
      assertThat(tester.call("guarded", "big", Map.of("size", 100)).isSuccess()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aCollectionOverTheCapLosesTrailingItemsAndSaysSo(String era) {
    try (FusionTester tester = FusionTester.of(new GuardedTools()).protocolVersion(era)) {
      ToolResult r = tester.call("guarded", "items", Map.of("count", 30, "size", 100));

      assertThat(r.isSuccess()).isTrue();
      assertThat(r.blocks()).contains(CAPPED_SUMMARY);
      assertThat((List<?>) r.data()).hasSize(6);
      assertThat(r.structuredContent().get("truncated")).isEqualTo(Map.of("shown", 6, "hidden", 24));
      assertThat(r.meta().get("mcpfusion/truncation")).isEqualTo(
          Map.of("shown", 6, "hidden", 24, "withheld", 24, "maxBytes", 2048));
      String raw = tester.rawMessages().get(tester.rawMessages().size() - 1);
      assertThat(resultBytes(raw)).isLessThanOrEqualTo(2048);

      ToolResult fits = tester.call("guarded", "items", Map.of("count", 3, "size", 100));
      assertThat((List<?>) fits.data()).hasSize(3);
      assertThat(fits.truncation()).isNull();
    }
  }

  /** The bytes of the {@code result} member of a JSON-RPC response, without the era's server name. */
  static int resultBytes(String raw) {
    int start = raw.indexOf("\"result\":") + "\"result\":".length();
    String result = raw.substring(start, raw.length() - 1);
    result = result.replaceAll(",\"resultType\":\"complete\"", "")
        .replaceAll(",?\"io\\.modelcontextprotocol/serverInfo\":\\{[^}]*\\}", "")
        .replace(",\"_meta\":{}", "");
    return result.getBytes(StandardCharsets.UTF_8).length;
  }

  // ---- prompts, resources and completions --------------------------------------------------------

  private static String featureBusy(String origin) {
    return BUSY.replace("[guarded/items]", "[" + origin + "]");
  }

  private static String featureTimeout(String origin) {
    return TIMEOUT.replace("[guarded/sleepy]", "[" + origin + "]");
  }

  /** The error's {@code data}: the {@code mcpfusion/error} entry of the envelope. */
  private static Map<?, ?> data(McpResponse r) {
    return (Map<?, ?>) r.errorData();
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void overCapacityAPromptAResourceAndACompletionAreServerBusy(String era) throws Exception {
    GuardedFeatures features = new GuardedFeatures();
    try (FusionTester tester = FusionTester.of(features).protocolVersion(era)) {
      Thread holder = new Thread(() -> tester.getPrompt("hold", Map.of()));
      holder.start();
      assertThat(features.holding.await(10, TimeUnit.SECONDS)).isTrue();

      McpResponse prompt = tester.getPrompt("greet", Map.of("name", "Ada"));
      McpResponse resource = tester.readResource("guarded://readme");
      McpResponse completion = tester.completeResource("guarded://pages/{page}", "page", "i");

      assertThat(prompt.errorMessage()).isEqualTo(featureBusy("GuardedFeatures/greet"));
      assertThat(resource.errorMessage()).isEqualTo(featureBusy("GuardedFeatures/readme"));
      assertThat(completion.errorMessage()).isEqualTo(featureBusy("GuardedFeatures/page"));
      for (McpResponse busy : List.of(prompt, resource, completion)) {
        assertThat(busy.errorCode()).isEqualTo(-32003);
        assertThat(data(busy).get("code")).isEqualTo("SERVER_BUSY");
        assertThat(data(busy).get("retryAfterSeconds")).isEqualTo(1L);
      }
      // A completion from an enum's constants runs no user code and takes no slot.
      assertThat(tester.complete("mood", "mood", "c").result())
          .containsEntry("completion", Map.of("values", List.of("CALM"), "total", 1L, "hasMore", false));
      features.release.countDown();
      holder.join(10_000);
      // The slot is free again once the holder returned.
      assertThat(tester.getPrompt("greet", Map.of("name", "Ada")).isError()).isFalse();
      assertThat(tester.readResource("guarded://readme").isError()).isFalse();
      assertThat(tester.completeResource("guarded://pages/{page}", "page", "i").isError()).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aRoutersOneSlotIsSharedByItsToolsAndItsPrompts(String era) throws Exception {
    GuardedTools tools = new GuardedTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      Thread holder = new Thread(() -> tester.call("guarded", "hold"));
      holder.start();
      assertThat(tools.holding.await(10, TimeUnit.SECONDS)).isTrue();

      McpResponse busy = tester.getPrompt("status", Map.of());

      assertThat(busy.errorCode()).isEqualTo(-32003);
      assertThat(busy.errorMessage()).isEqualTo(featureBusy("guarded/status"));
      tools.release.countDown();
      holder.join(10_000);
      assertThat(tester.getPrompt("status", Map.of()).isError()).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void pastTheDeadlineAPromptAResourceAndACompletionAreTimeoutAndInterrupted(String era) {
    GuardedFeatures features = new GuardedFeatures();
    try (FusionTester tester = FusionTester.of(features).protocolVersion(era)) {
      McpResponse prompt = tester.getPrompt("sleepy", Map.of());
      McpResponse resource = tester.readResource("guarded://sleepy");
      McpResponse completion = tester.complete("pick", "option", "");

      assertThat(prompt.errorMessage()).isEqualTo(featureTimeout("GuardedFeatures/sleepy"));
      assertThat(resource.errorMessage()).isEqualTo(featureTimeout("GuardedFeatures/sleepy_resource"));
      assertThat(completion.errorMessage()).isEqualTo(featureTimeout("GuardedFeatures/pick"));
      for (McpResponse timedOut : List.of(prompt, resource, completion)) {
        assertThat(timedOut.errorCode()).isEqualTo(-32004);
        assertThat(data(timedOut).get("code")).isEqualTo("TIMEOUT");
      }
      assertThat(features.interrupted).hasValue(3);
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains("slept") || m.contains("interrupted\""));
    }
  }

  /** Each request kind against a handler that ignores its interrupt (one latch per fixture). */
  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> stubbornFeatures() {
    java.util.stream.Stream.Builder<org.junit.jupiter.params.provider.Arguments> cases =
        java.util.stream.Stream.builder();
    for (String era : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
      for (String kind : List.of("prompt", "resource", "completion")) {
        cases.add(org.junit.jupiter.params.provider.Arguments.of(era, kind));
      }
    }
    return cases.build();
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("stubbornFeatures")
  void aTimedOutFeatureHandlersLateResultNeverReachesTheWire(String era, String kind)
      throws Exception {
    GuardedFeatures features = new GuardedFeatures();
    try (FusionTester tester = FusionTester.of(features).protocolVersion(era)) {
      // The handler spins until released, and is released only once the TIMEOUT is on the wire:
      // that error went out at the deadline, not when the handler returned.
      java.util.concurrent.atomic.AtomicBoolean sawTimeout = new java.util.concurrent.atomic.AtomicBoolean();
      Thread releaser = new Thread(() -> {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < end
            && tester.rawMessages().stream().noneMatch(m -> m.contains("code=\\\"TIMEOUT\\\""))) {
          Thread.onSpinWait();
        }
        sawTimeout.set(tester.rawMessages().stream().anyMatch(m -> m.contains("TIMEOUT")));
        features.release.countDown();
      });
      releaser.start();

      McpResponse r = switch (kind) {
        case "prompt" -> tester.getPrompt("stubborn", Map.of());
        case "resource" -> tester.readResource("guarded://stubborn");
        default -> tester.completeResource("guarded://stubborn/{part}", "part", "");
      };
      releaser.join(20_000);

      assertThat(r.errorCode()).isEqualTo(-32004);
      assertThat(data(r).get("code")).isEqualTo("TIMEOUT");
      assertThat(sawTimeout).as("the TIMEOUT was on the wire before the handler returned").isTrue();
      assertThat(features.stubbornReturned).isTrue();
      assertThat(features.stubbornRunning).hasValue(0);
      List<String> wire = tester.rawMessages();
      assertThat(wire).noneMatch(m -> m.contains("LATE-RESULT"));
      assertThat(wire.stream().filter(m -> m.contains("TIMEOUT"))).hasSize(1);
      // The thread that ran the handler carries no interrupt into the next request.
      assertThat(tester.getPrompt("greet", Map.of("name", "Ada")).isError()).isFalse();
    }
  }
}
