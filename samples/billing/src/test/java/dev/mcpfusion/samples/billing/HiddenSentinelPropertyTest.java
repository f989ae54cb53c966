package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.samples.billing.fixtures.RecordingTracer;
import dev.mcpfusion.samples.billing.fixtures.Vault;
import dev.mcpfusion.samples.billing.fixtures.Vault.Account;
import dev.mcpfusion.samples.billing.fixtures.Vault.Secret;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The egress net, for all inputs: random accounts with random {@code @Hidden} sentinels at every
 * level, served as every result kind (single, list, stream, array, Optional present and empty, map
 * rows, an error whose details hold the model and a view, a model no presenter can show, an
 * unexpected failure, a validation error, suggestions with arguments, data-dependent rules), in
 * FLAT, GROUPED and the modern era. No sentinel may appear in any byte of a reply, of the server log
 * or of a span, with result data and exception messages recorded on the span.
 */
class HiddenSentinelPropertyTest {
  private static final AtomicReference<List<Account>> ACCOUNTS = new AtomicReference<>(List.of());
  private static final AtomicReference<List<Map<String, Object>>> ROWS = new AtomicReference<>(List.of());
  private static final RecordingTracer TRACER = new RecordingTracer(new TraceOptions(true, true));
  private static final Map<String, FusionTester> TESTERS = new LinkedHashMap<>();

  @BeforeContainer
  static void start() {
    for (Exposition exposition : Exposition.values()) {
      TESTERS.put(exposition.name(), FusionTester.of(builder().exposition(exposition)));
    }
    TESTERS.put("MODERN", FusionTester.of(builder()).protocolVersion(FusionTester.MODERN));
  }

  static FusionServer.Builder builder() {
    return FusionServer.builder("vault", "1")
        .register(new Vault.VaultTools(ACCOUNTS::get, ROWS::get))
        .tracer(TRACER);
  }

  @AfterContainer
  static void stop() {
    TESTERS.values().forEach(FusionTester::close);
  }

  @Provide
  Arbitrary<String> sentinels() {
    return Arbitraries.strings().withCharRange('a', 'z').ofLength(14).map(s -> "zq" + s);
  }

  @Property(tries = 15)
  void noHiddenValueReachesAReplyTheLogOrASpan(
      @ForAll("sentinels") String value, @ForAll("sentinels") String token,
      @ForAll("sentinels") String flag, @ForAll("sentinels") String extra,
      @ForAll @IntRange(min = 1, max = 5) int accounts, @ForAll @IntRange(max = 4) int secrets) {
    List<String> sentinels = List.of(value, token, flag, extra);
    ACCOUNTS.set(accounts(accounts, secrets, value, token, flag));
    ROWS.set(rows(accounts, value, token, extra));
    TRACER.clear();

    List<String> texts = new ArrayList<>();
    String log = captureLog(() -> {
      for (FusionTester tester : TESTERS.values()) {
        for (String action : List.of("first", "all", "stream", "array", "rows", "refuse",
            "refuse_nested", "crash")) {
          texts.add(tester.call("vault", action, Map.of()).raw());
        }
        texts.add(tester.call("vault", "find", Map.of("id", "A-0")).raw());
        texts.add(tester.call("vault", "find", Map.of("id", "A-missing")).raw());
        texts.add(tester.call("vault", "find", Map.of("id", 7)).raw());
        texts.add(tester.call("vault", "no_such_action", Map.of()).raw());
        texts.addAll(tester.rawMessages());
      }
    });

    // The calls did what they should, so the absence below means something.
    FusionTester flat = TESTERS.get("FLAT");
    ToolResult refused = flat.call("vault", "refuse", Map.of());
    assertThat(refused.errorCode()).isEqualTo("CONFLICT");
    assertThat(refused.details()).containsKeys("account", "label", "count");
    assertThat(flat.call("vault", "refuse_nested", Map.of()).errorCode()).isEqualTo("INTERNAL_ERROR");
    assertThat(flat.call("vault", "all", Map.of()).suggestions()).isNotEmpty();
    assertThat(log).contains("incident");
    assertThat(TRACER.spans()).hasSizeGreaterThan(30);

    String spans = TRACER.dump();
    for (String sentinel : sentinels) {
      for (String text : texts) {
        assertThat(text).doesNotContain(sentinel);
      }
      assertThat(log).doesNotContain(sentinel);
      assertThat(spans).doesNotContain(sentinel);
    }
  }

  static List<Account> accounts(int n, int secrets, String value, String token, String flag) {
    List<Account> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Secret> list = new ArrayList<>();
      for (int j = 0; j < secrets; j++) {
        list.add(new Secret("L" + j, value));
      }
      out.add(new Account("A-" + i, "owner " + i, list, new Secret("P" + i, value), token,
          Map.of("flag", flag, flag, List.of(value))));
    }
    return out;
  }

  static List<Map<String, Object>> rows(int n, String value, String token, String extra) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Map<String, Object> secret = new LinkedHashMap<>();
      secret.put("label", "R" + i);
      secret.put("value", value);
      secret.put(extra, extra);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", "R-" + i);
      row.put("owner", "row owner");
      row.put("secrets", List.of(secret));
      row.put("primary", secret);
      row.put("token", token);
      row.put(extra, Map.of("deep", extra));
      out.add(row);
    }
    return out;
  }

  /** Everything the server logs while {@code body} runs (slf4j-simple writes to the current stderr). */
  static String captureLog(Runnable body) {
    PrintStream original = System.err;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      body.run();
    } finally {
      System.setErr(original);
    }
    return buffer.toString(StandardCharsets.UTF_8);
  }
}
