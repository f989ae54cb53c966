package dev.mcpfusion.http.hostile;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request of the hostile HTTP corpus ({@link HostileCorpus}): what is sent, and what the
 * endpoint must answer. Immutable; every {@code with…} returns a copy.
 *
 * <p>Header values, the path and the body may hold placeholders the replaying test fills in (see
 * {@link HostileCorpus}): {@code {port}}, {@code {session}}, {@code {foreign-session}},
 * {@code {tool}}, {@code {arg}}.
 *
 * @param name what the request is, for the assertion messages
 * @param method the HTTP method
 * @param path the request target
 * @param headers the headers as name/value pairs, in order (a {@code Host} here replaces the default)
 * @param body the body, or {@code null} for none
 * @param expected the status answered to a caller who is let in (auth off, or a valid token)
 * @param preAuth the status answered before authentication (a refusal every caller gets: a foreign
 *     Host or Origin, a CORS preflight), or {@code 0}: an anonymous caller gets {@code 401}
 * @param canary text of the request that must not come back in any answer, or {@code null}; what
 *     the framework repeats on purpose (a short name or value, cut at 100 characters by
 *     {@code dev.mcpfusion.wire.Echo}) is no canary, what lies beyond that cut is
 */
public record HostileRequest(String name, String method, String path, List<String[]> headers,
    byte[] body, int expected, int preAuth, String canary) {

  /** A 2025-era POST of {@code body} with {@code Content-Type} and {@code Accept} as a client sends them. */
  static HostileRequest post(String name, String body) {
    return new HostileRequest(name, "POST", "/mcp", List.of(
        new String[] {"Content-Type", "application/json"},
        new String[] {"Accept", "application/json, text/event-stream"}),
        body == null ? null : body.getBytes(StandardCharsets.UTF_8), 0, 0, null);
  }

  /**
   * A 2026-07-28 POST of {@code body} with the standard headers mirroring it: the protocol
   * version, {@code Mcp-Method}, and {@code Mcp-Name} when {@code target} is not null.
   */
  static HostileRequest modern(String name, String method, String target, String body) {
    HostileRequest request = post(name, body).with("MCP-Protocol-Version", "2026-07-28")
        .with("Mcp-Method", method);
    return target == null ? request : request.with("Mcp-Name", target);
  }

  /** A copy with this header added (or replacing one of the same name). */
  HostileRequest with(String header, String value) {
    List<String[]> all = new ArrayList<>(without(header).headers);
    all.add(new String[] {header, value});
    return new HostileRequest(name, method, path, List.copyOf(all), body, expected, preAuth, canary);
  }

  /** A copy without this header. */
  HostileRequest without(String header) {
    List<String[]> all = new ArrayList<>();
    for (String[] pair : headers) {
      if (!pair[0].equalsIgnoreCase(header)) {
        all.add(pair);
      }
    }
    return new HostileRequest(name, method, path, List.copyOf(all), body, expected, preAuth, canary);
  }

  /** A copy with the session header. */
  HostileRequest session(String session) {
    return with("Mcp-Session-Id", session);
  }

  /** A copy sent with another method. */
  HostileRequest method(String method) {
    return new HostileRequest(name, method, path, headers, body, expected, preAuth, canary);
  }

  /** A copy sent to another request target. */
  HostileRequest path(String path) {
    return new HostileRequest(name, method, path, headers, body, expected, preAuth, canary);
  }

  /** A copy with raw body bytes. */
  HostileRequest body(byte[] bytes) {
    return new HostileRequest(name, method, path, headers, bytes, expected, preAuth, canary);
  }

  /** A copy expecting {@code status} for a caller who is let in. */
  HostileRequest expect(int status) {
    return new HostileRequest(name, method, path, headers, body, status, preAuth, canary);
  }

  /** A copy refused with {@code status} before authentication, whoever calls. */
  HostileRequest beforeAuth(int status) {
    return new HostileRequest(name, method, path, headers, body, status, status, canary);
  }

  /** A copy whose {@code text} must never be echoed. */
  HostileRequest canary(String text) {
    return new HostileRequest(name, method, path, headers, body, expected, preAuth, text);
  }

  /** The placeholders of {@code text} filled from {@code values}. */
  static String fill(String text, Map<String, String> values) {
    String filled = text;
    for (Map.Entry<String, String> value : values.entrySet()) {
      filled = filled.replace("{" + value.getKey() + "}", value.getValue());
    }
    return filled;
  }

  /** Whether this request names a header ({@code name}, any case). */
  boolean has(String header) {
    return headers.stream().anyMatch(pair -> pair[0].toLowerCase(Locale.ROOT)
        .equals(header.toLowerCase(Locale.ROOT)));
  }

  @Override
  public String toString() {
    return name + " (" + method + " " + path + ")";
  }
}
