package dev.mcpfusion.framework.egress;

import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.testing.FusionTester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The wire of {@link FusionTester}: requests go through the tester's public API, and what the
 * server wrote is the tester's record of every server-to-client message
 * ({@link FusionTester#rawMessages()}). The tester answers sampling and elicitation itself, with
 * the same answers as the other wires, and declares those capabilities.
 */
final class TesterWire implements Wire {
  private static final Duration POLL = Duration.ofMillis(20);

  private final boolean modern;
  private final FusionTester tester;
  /** How many of the tester's messages the exchanges so far have taken. */
  private int seen;

  TesterWire(boolean modern) {
    this.modern = modern;
    FusionTester t = FusionTester.of(VaultServer.builder())
        .answerSampling(params -> Wire.SAMPLED)
        .acceptElicitation(Wire.ELICITED);
    if (modern) {
      t.protocolVersion(FusionTester.MODERN);
    }
    this.tester = t;
    if (!modern) {
      tester.setLogLevel(LogLevel.DEBUG);
    }
    seen = tester.rawMessages().size();
  }

  @Override
  public String name() {
    return "tester " + (modern ? FusionTester.MODERN : FusionTester.DEFAULT_VERSION);
  }

  @Override
  public boolean modern() {
    return modern;
  }

  @Override
  @SuppressWarnings("unchecked")
  public synchronized Exchange request(String method, Map<String, Object> params,
      Map<String, Object> meta) {
    Map<String, Object> requestMeta = new LinkedHashMap<>(meta);
    if (modern) {
      // The tester adds the version and capabilities; the log level is the client's choice.
      requestMeta.put(Meta.LOG_LEVEL, "debug");
    }
    if (JsonRpc.TOOLS_CALL.equals(method)) {
      tester.callTool((String) params.get("name"), (Map<String, ?>) params.get("arguments"),
          requestMeta.isEmpty() ? null : requestMeta);
    } else {
      if (modern && !meta.isEmpty()) {
        // FusionTester.request writes the era's _meta over the caller's in this era.
        throw new IllegalArgumentException("The tester sends no _meta of its own with " + method
            + " in the 2026-07-28 era; only tools/call merges it");
      }
      Map<String, Object> withMeta = new LinkedHashMap<>(params);
      if (!meta.isEmpty()) {
        withMeta.put("_meta", meta);
      }
      tester.request(method, withMeta);
    }
    List<Received> got = taken();
    Received reply = null;
    for (Received r : got) {
      if (r.isResponse()) {
        reply = r;
      }
    }
    if (reply == null) {
      throw new AssertionError(name() + ": no reply to " + method + " among " + got);
    }
    return new Exchange(method, params, reply, got);
  }

  @Override
  public synchronized List<Received> await(Predicate<Received> wanted, Duration timeout) {
    List<Received> got = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (Received r : taken()) {
        got.add(r);
        if (wanted.test(r)) {
          return got;
        }
      }
      if (System.nanoTime() >= deadline) {
        return got;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return got;
      }
    }
  }

  /** The tester's messages not taken by an exchange yet. */
  private List<Received> taken() {
    List<String> all = tester.rawMessages();
    List<Received> out = new ArrayList<>();
    for (String text : all.subList(seen, all.size())) {
      out.add(new Received("tester", text, text));
    }
    seen = all.size();
    return out;
  }

  @Override
  public List<Received> transcript() {
    return tester.rawMessages().stream().map(t -> new Received("tester", t, t)).toList();
  }

  @Override
  public void close() {
    tester.close();
  }
}
