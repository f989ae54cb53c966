package dev.mcpfusion.http;

import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.McpHeaders;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import java.util.Locale;
import java.util.Map;

/**
 * The standard request headers of the 2026-07-28 era over HTTP: {@code Mcp-Method} on every
 * request and notification, {@code MCP-Protocol-Version} on every one that names its version in
 * {@code params._meta}, and {@code Mcp-Name} on {@code tools/call}, {@code prompts/get} and
 * {@code resources/read}. Each must be sent and equal what the body says, after the surrounding
 * whitespace HTTP allows is trimmed; values are case-sensitive. Intermediaries route on these
 * headers while the server acts on the body, so a request whose two disagree is refused
 * (400, {@code HeaderMismatch}) rather than served. A request in a version this server does not
 * speak is checked only for a version header that disagrees with its {@code _meta}: the edge then
 * answers with the versions it supports.
 */
final class StandardHeaders {
  private static final String PREFIX = "Header mismatch: ";

  private StandardHeaders() {}

  /**
   * Why the standard headers of a 2026-07-28 {@code message} are missing or disagree with its body
   * (a sentence that says which header to send with which value), or {@code null} when they agree.
   */
  static String problem(Inbound inbound, Message message) {
    String method = message.method();
    Map<?, ?> params = message.params();
    Object metaVersion = params != null && params.get("_meta") instanceof Map<?, ?> m
        ? m.get(Meta.PROTOCOL_VERSION) : null;
    String versionHeader = header(inbound, McpHeaders.PROTOCOL_VERSION);
    if (metaVersion instanceof String version && versionHeader != null
        && !versionHeader.equals(version)) {
      return disagrees(McpHeaders.PROTOCOL_VERSION, versionHeader, "\"" + Meta.PROTOCOL_VERSION
          + "\" in params._meta", version);
    }
    if (metaVersion instanceof String version && !ProtocolVersions.isModern(version)) {
      // A version this server does not speak has header rules it cannot know: the edge answers
      // with the versions it supports, so the client can retry in one of them.
      return null;
    }
    String sent = header(inbound, McpHeaders.METHOD);
    if (sent == null) {
      return PREFIX + "the " + McpHeaders.METHOD + " header is missing. Every 2026-07-28 request"
          + " and notification over HTTP carries its JSON-RPC method there: send "
          + McpHeaders.METHOD + ": " + Echo.cut(method) + ".";
    }
    if (!sent.equals(method)) {
      return disagrees(McpHeaders.METHOD, sent, "the method", method);
    }
    if (metaVersion instanceof String version && versionHeader == null) {
      return PREFIX + "the " + McpHeaders.PROTOCOL_VERSION + " header is missing. Every"
          + " 2026-07-28 request over HTTP carries the protocol version of its params._meta"
          + " there: send " + McpHeaders.PROTOCOL_VERSION + ": " + Echo.cut(version) + ".";
    }
    String member = McpHeaders.nameMember(method);
    if (member != null && params != null && params.get(member) instanceof String name) {
      String header = header(inbound, McpHeaders.NAME);
      if (header == null) {
        return PREFIX + "the " + McpHeaders.NAME + " header is missing. A 2026-07-28 " + method
            + " over HTTP carries params." + member + " there: send " + McpHeaders.NAME + ": "
            + Echo.cut(name) + ".";
      }
      if (!header.equals(name)) {
        return disagrees(McpHeaders.NAME, header, "params." + member, name);
      }
    }
    return null;
  }

  private static String disagrees(String header, String sent, String what, String body) {
    return PREFIX + "the " + header + " header " + Echo.quoted(sent) + " does not match " + what
        + " " + Echo.quoted(body) + " (values are case-sensitive): send " + header + ": "
        + Echo.cut(body) + ".";
  }

  /** A header's value with the optional whitespace around it trimmed, or {@code null} when it is absent. */
  private static String header(Inbound inbound, String name) {
    String value = inbound.header(name.toLowerCase(Locale.ROOT));
    return value == null ? null : value.strip();
  }
}
