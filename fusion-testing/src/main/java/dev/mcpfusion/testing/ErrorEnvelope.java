package dev.mcpfusion.testing;

import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.testing.ToolResult.FieldError;
import dev.mcpfusion.testing.ToolResult.JsonRpcError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error parts of a failed {@link ToolResult}: read from the {@code mcpfusion/error} facts of
 * {@code _meta} when the reply has them, else from the envelope text an agent reads (a JSON-RPC
 * error carries only the text and its {@code data}).
 */
final class ErrorEnvelope {
  private static final Pattern TOOL_ERROR_START =
      Pattern.compile("\\A<tool_error code=\"([^\"]*)\" severity=\"([^\"]*)\">");
  private static final Pattern RECOVERY = Pattern.compile("<recovery>(.*?)</recovery>", Pattern.DOTALL);
  private static final Pattern ACTION = Pattern.compile("<action>(.*?)</action>", Pattern.DOTALL);
  private static final Pattern DETAIL =
      Pattern.compile("<detail key=\"([^\"]*)\">(.*?)</detail>", Pattern.DOTALL);
  private static final Pattern FIELD = Pattern.compile("<field name=\"([^\"]*)\">(.*?)</field>", Pattern.DOTALL);
  private static final Pattern RETRY_AFTER = Pattern.compile("<retry_after>(\\d+) seconds?</retry_after>");

  /** The {@code mcpfusion/error} facts, or {@code null} when the reply has none. */
  private final Map<String, Object> facts;
  /** The envelope text (the first text block, or the JSON-RPC message); {@code null} on success. */
  private final String text;
  private final JsonRpcError jsonRpcError;

  ErrorEnvelope(Map<String, Object> facts, String text, JsonRpcError jsonRpcError) {
    this.facts = facts;
    this.text = text;
    this.jsonRpcError = jsonRpcError;
  }

  String text() {
    return text;
  }

  String code() {
    if (facts != null && facts.get("code") instanceof String code) {
      return code;
    }
    if (jsonRpcError != null && jsonRpcError.data() instanceof Map<?, ?> data
        && data.get("code") instanceof String code) {
      return code;
    }
    if (text != null) {
      Matcher m = TOOL_ERROR_START.matcher(text);
      if (m.find()) {
        return ToolResult.unescape(m.group(1));
      }
      if (text.startsWith("<validation_error")) {
        return Codes.VALIDATION_ERROR;
      }
    }
    return null;
  }

  String severity() {
    if (facts != null && facts.get("severity") instanceof String s) {
      return s;
    }
    if (text != null) {
      Matcher m = TOOL_ERROR_START.matcher(text);
      if (m.find()) {
        return ToolResult.unescape(m.group(2));
      }
    }
    return "error";
  }

  String recovery() {
    if (facts != null) {
      return facts.get("recovery") instanceof String s ? s : null;
    }
    return firstGroup(RECOVERY, text);
  }

  List<String> actions() {
    if (facts != null) {
      return ToolResult.strings(facts.get("actions"));
    }
    return allGroups(ACTION, text);
  }

  Map<String, String> details() {
    Map<String, String> out = new LinkedHashMap<>();
    if (facts != null) {
      if (facts.get("details") instanceof Map<?, ?> d) {
        d.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
      }
    } else if (text != null) {
      Matcher m = DETAIL.matcher(text);
      while (m.find()) {
        out.put(ToolResult.unescape(m.group(1)), ToolResult.unescape(m.group(2)));
      }
    }
    return Collections.unmodifiableMap(out);
  }

  Long retryAfterSeconds() {
    if (facts != null) {
      return facts.get("retryAfterSeconds") instanceof Number n ? n.longValue() : null;
    }
    String s = firstGroup(RETRY_AFTER, text);
    return s == null ? null : Long.valueOf(s);
  }

  List<FieldError> fieldErrors() {
    List<FieldError> out = new ArrayList<>();
    if (facts != null && facts.get("fields") instanceof List<?> fields) {
      for (Object f : fields) {
        if (f instanceof Map<?, ?> m) {
          out.add(new FieldError(String.valueOf(m.get("path")), String.valueOf(m.get("message"))));
        }
      }
    } else if (text != null && text.startsWith("<validation_error")) {
      Matcher m = FIELD.matcher(text);
      while (m.find()) {
        out.add(new FieldError(ToolResult.unescape(m.group(1)), ToolResult.unescape(m.group(2))));
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static String firstGroup(Pattern pattern, String text) {
    if (text == null) {
      return null;
    }
    Matcher m = pattern.matcher(text);
    return m.find() ? ToolResult.unescape(m.group(1)) : null;
  }

  private static List<String> allGroups(Pattern pattern, String text) {
    List<String> out = new ArrayList<>();
    if (text != null) {
      Matcher m = pattern.matcher(text);
      while (m.find()) {
        out.add(ToolResult.unescape(m.group(1)));
      }
    }
    return Collections.unmodifiableList(out);
  }
}
