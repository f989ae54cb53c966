package dev.mcpfusion.framework.egress;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A client connection to a fresh vault server over one transport in one protocol era, recording
 * every byte the server writes to it. Made for the egress property and for tests of one channel:
 *
 * <pre>{@code
 * try (Wire wire = Wire.stdio(false)) {
 *   Exchange e = wire.request(JsonRpc.PROMPTS_GET, Map.of("name", "brief_account", ...));
 *   e.received();   // every message the server wrote while the request was in flight
 * }
 * }</pre>
 *
 * <p>In the classic era the wire initializes a session first (declaring sampling and elicitation,
 * then {@code logging/setLevel debug}); in the 2026-07-28 era every request carries the protocol
 * version, empty client capabilities and log level {@code debug} in {@code params._meta}. The
 * client answers every server request itself: sampling with {@link #SAMPLED}, elicitation by
 * accepting {@link #ELICITED}.
 */
interface Wire extends AutoCloseable {
  /** How long a request may wait for its reply (a child JVM may still be starting). */
  Duration REPLY_TIMEOUT = Duration.ofSeconds(60);

  /** The client's answer to every {@code sampling/createMessage}. */
  Map<String, Object> SAMPLED = Map.of("role", "assistant",
      "content", Map.of("type", "text", "text", "Noted."), "model", "egress-test",
      "stopReason", "endTurn");

  /** What the client accepts every {@code elicitation/create} form with. */
  Map<String, Object> ELICITED = Map.of("confirm", true);

  /** The transport and era, e.g. {@code stdio 2025-11-25}. */
  String name();

  /** Whether this wire speaks the stateless 2026-07-28 era. */
  boolean modern();

  /**
   * Sends a request with the era's {@code _meta} plus {@code meta}, answers the server's requests
   * while it is in flight, and returns its reply with everything received meanwhile (and anything
   * that arrived since the last exchange).
   *
   * @throws AssertionError when no reply comes within {@link #REPLY_TIMEOUT}
   */
  Exchange request(String method, Map<String, Object> params, Map<String, Object> meta);

  /** {@link #request(String, Map, Map)} with the era's {@code _meta} only. */
  default Exchange request(String method, Map<String, Object> params) {
    return request(method, params, Map.of());
  }

  /**
   * Waits at most {@code timeout} for a message {@code wanted} accepts, answering server requests;
   * returns everything received meanwhile, the wanted message last when it came.
   */
  List<Received> await(Predicate<Received> wanted, Duration timeout);

  /** Everything the server wrote to this wire so far, in order. */
  List<Received> transcript();

  @Override
  void close();

  /** The in-memory tester ({@code FusionTester}) over a fresh vault server. */
  static Wire tester(boolean modern) {
    return new TesterWire(modern);
  }

  /** A fresh vault server in a child JVM, served by {@code FusionServer.serveStdio()}. */
  static Wire stdio(boolean modern) {
    return new StdioWire(modern);
  }

  /**
   * A fresh vault server on fusion-http at 127.0.0.1: a Streamable HTTP session (its GET event
   * stream open) in the classic era, stateless POSTs in the 2026-07-28 era.
   */
  static Wire http(boolean modern) {
    return new HttpWire(modern);
  }
}
