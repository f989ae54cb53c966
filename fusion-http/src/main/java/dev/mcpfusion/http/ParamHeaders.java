package dev.mcpfusion.http;

import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.McpHeaders;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The custom request headers of the 2026-07-28 era over HTTP (SEP-2243): a tool whose input
 * schema marks a top-level {@code string}, {@code integer}, {@code number} or {@code boolean}
 * property {@code "x-mcp-header": "Region"} is called with that argument mirrored in
 * {@code Mcp-Param-Region}. Intermediaries may route on the header while the server acts on the
 * body, so a {@code tools/call} whose header is missing while the argument is present (and not
 * null), or whose header disagrees with the argument, is refused (400, {@code HeaderMismatch}). A
 * value wrapped {@code =?base64?…?=} is decoded first, and one whose payload is not valid Base64
 * (padding included) or not UTF-8 is refused; any other value is taken literally. Numbers compare
 * as numbers ({@code 42} and {@code 42.0} agree).
 */
final class ParamHeaders {
  private static final String PREFIX = "Header mismatch: ";
  private static final String BASE64_START = "=?base64?";
  private static final String BASE64_END = "?=";
  private static final Pattern BASE64 = Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

  /** Per tool name: argument name → header name, for the tools that mark any. */
  private final Map<String, Map<String, String>> byTool;

  ParamHeaders(Map<String, Map<String, String>> byTool) {
    this.byTool = Map.copyOf(byTool);
  }

  /**
   * Why the custom headers of a 2026-07-28 {@code tools/call} are missing, malformed or disagree
   * with its arguments (a sentence that says what to send), or {@code null} when they agree.
   */
  String problem(Inbound inbound, Message message) {
    if (!JsonRpc.TOOLS_CALL.equals(message.method()) || message.params() == null
        || !(message.params().get("name") instanceof String tool) || !byTool.containsKey(tool)) {
      return null;
    }
    Map<?, ?> arguments = message.params().get("arguments") instanceof Map<?, ?> a ? a : Map.of();
    for (Map.Entry<String, String> marked : byTool.get(tool).entrySet()) {
      Object value = arguments.get(marked.getKey());
      if (value == null) {
        continue; // an absent or null argument: no header is expected
      }
      String header = McpHeaders.PARAM_PREFIX + marked.getValue();
      String sent = inbound.header(header.toLowerCase(Locale.ROOT));
      String body = value instanceof String s ? s : String.valueOf(value);
      if (sent == null) {
        return PREFIX + "the " + header + " header is missing. The tool " + Echo.quoted(tool)
            + " mirrors its argument " + Echo.quoted(marked.getKey()) + " there: send " + header
            + ": " + Echo.cut(body) + " (Base64-encoded as =?base64?...?= if it is not plain ASCII).";
      }
      String decoded = decode(sent.strip());
      if (decoded == null) {
        return PREFIX + "the " + header + " header is wrapped =?base64?...?= but its payload is"
            + " not valid Base64 of UTF-8 text (check the padding and the alphabet): send the"
            + " Base64 of " + Echo.quoted(body) + " or the value itself.";
      }
      if (!agrees(decoded, value)) {
        return PREFIX + "the " + header + " header " + Echo.quoted(decoded) + " does not match"
            + " the argument " + Echo.quoted(marked.getKey()) + " " + Echo.quoted(body)
            + ": send " + header + ": " + Echo.cut(body) + ".";
      }
    }
    return null;
  }

  /** The header value, decoded when it is wrapped {@code =?base64?…?=}; {@code null} when that payload is invalid. */
  static String decode(String value) {
    if (value.length() < BASE64_START.length() + BASE64_END.length()
        || !value.startsWith(BASE64_START) || !value.endsWith(BASE64_END)) {
      return value;
    }
    String payload = value.substring(BASE64_START.length(), value.length() - BASE64_END.length());
    if (!BASE64.matcher(payload).matches()) {
      return null;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(Base64.getDecoder().decode(payload))).toString();
    } catch (CharacterCodingException | IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean agrees(String header, Object value) {
    if (value instanceof Number number) {
      try {
        return new BigDecimal(header.strip()).compareTo(new BigDecimal(number.toString())) == 0;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return header.equals(value instanceof String s ? s : String.valueOf(value));
  }
}
