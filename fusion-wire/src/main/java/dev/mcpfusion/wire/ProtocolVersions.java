package dev.mcpfusion.wire;

import java.util.List;

/**
 * The protocol versions the framework speaks: the one list every transport, the tester and the
 * edge read. The classic (session) era is negotiated with {@code initialize}; the stateless
 * 2026-07-28 era is named by every request.
 */
public final class ProtocolVersions {
  private ProtocolVersions() {}

  /** The stateless era: every request names it in {@code params._meta} (or an HTTP header). */
  public static final String MODERN = "2026-07-28";

  /** The newest classic version, offered when a client asks for one the server does not speak. */
  public static final String LATEST_CLASSIC = "2025-11-25";

  /** The first version whose HTTP transport is Streamable HTTP (2024-11-05 used HTTP+SSE). */
  public static final String FIRST_STREAMABLE_HTTP = "2025-03-26";

  /** Every classic version, oldest first. */
  public static final List<String> CLASSIC =
      List.of("2024-11-05", "2025-03-26", "2025-06-18", LATEST_CLASSIC);

  /** The classic versions a Streamable HTTP endpoint accepts, oldest first. */
  public static final List<String> STREAMABLE_HTTP =
      CLASSIC.subList(CLASSIC.indexOf(FIRST_STREAMABLE_HTTP), CLASSIC.size());

  /** Whether {@code version} is a classic version this framework speaks ({@code null}: no). */
  public static boolean isClassic(Object version) {
    return version instanceof String v && CLASSIC.contains(v);
  }

  /** Whether {@code version} is the stateless era's ({@code null}: no). */
  public static boolean isModern(Object version) {
    return MODERN.equals(version);
  }
}
