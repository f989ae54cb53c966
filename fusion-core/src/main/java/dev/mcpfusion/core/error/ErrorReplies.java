package dev.mcpfusion.core.error;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.Markup;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The self-healing error envelopes: one text block, {@code isError: true}, no
 * {@code structuredContent}, and an {@code mcpfusion/error} {@code _meta} entry with the same facts.
 *
 * <p>Text escapes {@code &} and {@code <}; attribute values escape {@code & < > " '}. Element order
 * is fixed and empty parts are omitted.
 */
public final class ErrorReplies {
  static final String RECOVERY_CHOOSE_ACTION = "Choose one of the available actions and call the tool again.";
  static final String RECOVERY_VALIDATION =
      "Fix the fields above and call the tool again. Do not explain the error.";
  static final String RECOVERY_INTERNAL =
      "Do not retry with the same arguments; tell the user the tool failed.";
  static final int SENT_MAX_CHARS = 47;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private ErrorReplies() {}

  /**
   * A thrown {@link FusionError}, with its actions (and the logical references in its recovery)
   * rendered by {@code refs}; without redaction, and
   * a view or model detail fails (there is no presenter to render it with).
   */
  public static Reply fusionError(FusionError e, References refs) {
    return fusionError(e, refs, ErrorReplies::noPresenter, null, null);
  }

  private static Object noPresenter(Object value) {
    throw new IllegalStateException("a FusionError detail holds a " + value.getClass().getName()
        + ", and no presenter is available to render it");
  }

  /**
   * A thrown {@link FusionError}, with its actions rendered by {@code refs}, its view and model
   * details rendered by {@code present} (to a plain JSON tree), and its message, recovery and
   * details masked by {@code redactor} (when not {@code null}), counting into {@code tally}.
   *
   * @throws IllegalStateException if a detail cannot be presented or redacted: the caller answers
   *     {@code INTERNAL_ERROR} instead, never the unredacted error
   */
  public static Reply fusionError(FusionError e, References refs,
      java.util.function.Function<Object, Object> present, Redactor redactor, Tally tally) {
    List<String> actions = new ArrayList<>(e.actions().size());
    for (String a : e.actions()) {
      actions.add(refs.render(a));
    }
    String severity = e.severity() == FusionError.Severity.WARNING ? "warning" : "error";
    Long retrySeconds = e.retryAfter() == null ? null : seconds(e.retryAfter());
    String message = e.getMessage();
    // The recovery names actions as the agent calls them, like <available_actions> does.
    String recovery = refs.renderIn(e.recovery());
    Map<String, String> details = new LinkedHashMap<>();
    for (Map.Entry<String, Object> d : e.details().entrySet()) {
      Object value;
      if (d.getValue() instanceof String s) {
        // A scalar sits under its key: "*.email" and "email" both name the detail "email".
        value = redactor == null ? s : redactor.tree(d.getKey(), s, tally);
      } else {
        // A view or model is masked like a result: its paths are relative to the view.
        value = present.apply(d.getValue());
        value = redactor == null ? value : redactor.tree(value, tally);
      }
      details.put(d.getKey(), value instanceof String s ? s : Json.write(value));
    }
    if (redactor != null) {
      message = redactor.text(message, tally);
      recovery = redactor.text(recovery, tally);
    }

    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"" + Markup.attribute(e.code()) + "\" severity=\"" + severity + "\">");
    element(lines, "message", message);
    element(lines, "recovery", recovery);
    actionList(lines, actions);
    if (!details.isEmpty()) {
      lines.add("<details>");
      details.forEach((k, v) -> lines.add("  <detail key=\"" + Markup.attribute(k) + "\">"
          + Markup.text(v) + "</detail>"));
      lines.add("</details>");
    }
    if (retrySeconds != null) {
      lines.add("<retry_after>" + retrySeconds + (retrySeconds == 1 ? " second" : " seconds")
          + "</retry_after>");
    }
    lines.add("</tool_error>");

    Map<String, Object> error = errorMeta(e.code(), severity, blankToNull(recovery), actions);
    if (!details.isEmpty()) {
      error.put("details", details);
    }
    if (retrySeconds != null) {
      error.put("retryAfterSeconds", retrySeconds);
    }
    return reply(lines, error);
  }

  /** Whole seconds, rounded up; a negative duration counts as zero. */
  private static long seconds(Duration d) {
    if (d.isNegative()) {
      return 0;
    }
    return d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
  }

  /**
   * {@code <validation_error action="router/action">}: one {@code <field>} per problem, in order,
   * each line reading {@code message You sent: VALUE.} plus the optional hint.
   */
  public static Reply validation(String router, String action, List<Problem> problems) {
    List<String> lines = new ArrayList<>();
    lines.add("<validation_error action=\"" + Markup.attribute(origin(router, action)) + "\">");
    List<Map<String, Object>> fields = new ArrayList<>();
    for (Problem problem : problems) {
      lines.add("<field name=\"" + Markup.attribute(problem.path()) + "\">"
          + Markup.text(line(problem)) + "</field>");
      Map<String, Object> field = new LinkedHashMap<>();
      field.put("path", problem.path());
      field.put("message", problem.message());
      fields.add(field);
    }
    lines.add("<recovery>" + RECOVERY_VALIDATION + "</recovery>");
    lines.add("</validation_error>");
    Map<String, Object> error = errorMeta(Codes.VALIDATION_ERROR, "error", RECOVERY_VALIDATION, List.of());
    error.put("fields", fields);
    return reply(lines, error);
  }

  /**
   * One validation line, unescaped: the message, a separator ({@code " "} after {@code . ! ? " '},
   * else {@code ". "}), {@code You sent: VALUE.} and the hint if any.
   */
  static String line(Problem problem) {
    String message = problem.message() == null ? "" : problem.message();
    StringBuilder line = new StringBuilder(message);
    if (!message.isEmpty() && ".!?\"'".indexOf(message.charAt(message.length() - 1)) >= 0) {
      line.append(' ');
    } else {
      line.append(". ");
    }
    line.append("You sent: ").append(sent(problem.sent())).append('.');
    if (problem.hint() != null && !problem.hint().isBlank()) {
      line.append(' ').append(problem.hint());
    }
    return line.toString();
  }

  /**
   * How a sent value is echoed: a string single-quoted (cut to 47 characters plus {@code …}),
   * a number or boolean as JSON, {@code array(N)}, {@code object}, {@code null}, {@code nothing}
   * for a missing value, an enum or other object as its quoted name/text.
   */
  static String sent(Object value) {
    if (value == Problems.MISSING) {
      return "nothing";
    }
    if (value == null) {
      return "null";
    }
    if (value instanceof CharSequence cs) {
      return quoted(cs.toString());
    }
    if (value instanceof Boolean b) {
      return b.toString();
    }
    if (value instanceof Number n) {
      try {
        return Json.write(n);
      } catch (IllegalArgumentException nonFinite) {
        return n.toString();
      }
    }
    if (value instanceof Collection<?> c) {
      return "array(" + c.size() + ")";
    }
    if (value.getClass().isArray()) {
      return "array(" + java.lang.reflect.Array.getLength(value) + ")";
    }
    if (value instanceof Map<?, ?>) {
      return "object";
    }
    if (value instanceof Enum<?> e) {
      return quoted(e.name());
    }
    return quoted(String.valueOf(value));
  }

  private static String quoted(String s) {
    int codePoints = s.codePointCount(0, s.length());
    if (codePoints > SENT_MAX_CHARS) {
      s = s.substring(0, s.offsetByCodePoints(0, SENT_MAX_CHARS)) + "\u2026";
    }
    return "'" + s + "'";
  }

  /**
   * {@code INTERNAL_ERROR}: names the origin and the incident id only; the exception text and stack
   * belong in the server log line that carries the same incident id.
   */
  public static Reply internal(String router, String action, String incidentId) {
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">");
    element(lines, "message", "[" + origin(router, action) + "] The tool failed unexpectedly (incident "
        + incidentId + ").");
    element(lines, "recovery", RECOVERY_INTERNAL);
    lines.add("</tool_error>");
    return reply(lines, errorMeta(Codes.INTERNAL_ERROR, "error", RECOVERY_INTERNAL, List.of()));
  }

  /** The recovery line of {@code SERVER_BUSY}. */
  static final String RECOVERY_BUSY = "Wait a moment, then call the tool again with the same arguments.";
  /** The recovery line of {@code TIMEOUT}. */
  static final String RECOVERY_TIMEOUT = "Call the tool again with a narrower request. If the call "
      + "changes data, check whether the change happened before repeating it.";
  /** The recovery line of {@code PAYLOAD_TOO_LARGE}. */
  static final String RECOVERY_TOO_LARGE = "Ask for less: narrow the request with filters or request "
      + "a smaller page. The same request will fail again.";

  /**
   * {@code SERVER_BUSY}: the call was turned away because {@code maxConcurrent} calls run and
   * {@code queue} wait already; retry after one second.
   */
  public static Reply serverBusy(String router, String action, int maxConcurrent, int queue) {
    return guard(Codes.SERVER_BUSY, "[" + origin(router, action) + "] The server is busy: its limit of "
        + maxConcurrent + " running and " + queue + " waiting calls is reached.", RECOVERY_BUSY, 1L);
  }

  /**
   * {@code SERVER_BUSY} for a {@code @SerializeOn} action: {@code queue} calls naming the same
   * {@code argument} value already wait (the value itself is not repeated: it may be anything).
   */
  public static Reply keyBusy(String router, String action, String argument, int queue) {
    return guard(Codes.SERVER_BUSY, "[" + origin(router, action) + "] The server is busy: calls with"
        + " the same " + argument + " run one at a time, and " + queue
        + " already wait for this one.", RECOVERY_BUSY, 1L);
  }

  /** {@code TIMEOUT}: the call ran past its deadline and was stopped; its result is discarded. */
  public static Reply timeout(String router, String action, long timeoutMs) {
    return guard(Codes.TIMEOUT, "[" + origin(router, action) + "] The call did not finish within "
        + timeoutMs + " ms and was stopped.", RECOVERY_TIMEOUT, null);
  }

  /**
   * {@code PAYLOAD_TOO_LARGE}: the reply cannot fit in {@code maxBytes}, not even with trailing
   * items withheld ({@code firstItem}: one item alone is too large).
   */
  public static Reply payloadTooLarge(String router, String action, long maxBytes, boolean firstItem) {
    String what = firstItem ? "Even one item of the reply is" : "The reply is";
    return guard(Codes.PAYLOAD_TOO_LARGE, "[" + origin(router, action) + "] " + what + " larger than "
        + maxBytes + " bytes, the most this tool may send.", RECOVERY_TOO_LARGE, null);
  }

  /**
   * {@code PAYLOAD_TOO_LARGE} for a prompt's, resource's or completion's answer ({@code kind}):
   * it is larger than its byte cap and is not sent at all.
   */
  public static Reply answerTooLarge(String origin, String kind, long maxBytes) {
    return guard(Codes.PAYLOAD_TOO_LARGE, "[" + origin + "] The " + kind + "'s answer is larger than "
        + maxBytes + " bytes, the most it may send.", RECOVERY_TOO_LARGE, null);
  }

  private static Reply guard(String code, String message, String recovery, Long retrySeconds) {
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"" + code + "\" severity=\"error\">");
    element(lines, "message", message);
    element(lines, "recovery", recovery);
    if (retrySeconds != null) {
      lines.add("<retry_after>" + retrySeconds + (retrySeconds == 1 ? " second" : " seconds")
          + "</retry_after>");
    }
    lines.add("</tool_error>");
    Map<String, Object> error = errorMeta(code, "error", recovery, List.of());
    if (retrySeconds != null) {
      error.put("retryAfterSeconds", retrySeconds);
    }
    return reply(lines, error);
  }

  /**
   * {@code FORBIDDEN}: the caller lacks {@code missing}, scopes the action requires; the envelope
   * names them (also as {@code requiredScopes} in its {@code _meta} entry) so that the agent can
   * ask for them instead of retrying.
   */
  public static Reply forbidden(String router, String action, List<String> missing) {
    String scopes = String.join(" ", missing);
    String recovery = "Do not retry: ask the user to grant the scope" + (missing.size() == 1 ? " " : "s ")
        + scopes + " (for example by signing in again with " + (missing.size() == 1 ? "it" : "them")
        + "), or use a tool that does not need " + (missing.size() == 1 ? "it" : "them") + ".";
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"" + Codes.FORBIDDEN + "\" severity=\"error\">");
    element(lines, "message", "[" + origin(router, action) + "] This caller lacks the scope"
        + (missing.size() == 1 ? " " : "s ") + scopes + ", which this action requires.");
    element(lines, "recovery", recovery);
    lines.add("</tool_error>");
    Map<String, Object> error = errorMeta(Codes.FORBIDDEN, "error", recovery, List.of());
    error.put("requiredScopes", List.copyOf(missing));
    return reply(lines, error);
  }

  /** {@code UNKNOWN_ACTION}: {@code The action "x" does not exist in router.} and the valid actions. */
  public static Reply unknownAction(String router, String attempted, List<String> renderedActions) {
    return discriminator(Codes.UNKNOWN_ACTION,
        "The action " + Echo.quoted(attempted) + " does not exist in " + router + ".",
        renderedActions);
  }

  /** {@code MISSING_DISCRIMINATOR}: {@code The required field "action" is missing.} and the valid actions. */
  public static Reply missingDiscriminator(String router, List<String> renderedActions) {
    return discriminator(Codes.MISSING_DISCRIMINATOR, "The required field \"action\" is missing.",
        renderedActions);
  }

  /** {@code INVALID_DISCRIMINATOR}: {@code Field "action" must be a string, got number.} and the valid actions. */
  public static Reply invalidDiscriminator(String router, String jsonTypeName,
      List<String> renderedActions) {
    return discriminator(Codes.INVALID_DISCRIMINATOR,
        "Field \"action\" must be a string, got " + jsonTypeName + ".", renderedActions);
  }

  private static Reply discriminator(String code, String message, List<String> renderedActions) {
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"" + code + "\" severity=\"error\">");
    element(lines, "message", message);
    element(lines, "recovery", RECOVERY_CHOOSE_ACTION);
    actionList(lines, renderedActions);
    lines.add("</tool_error>");
    return reply(lines, errorMeta(code, "error", RECOVERY_CHOOSE_ACTION, renderedActions));
  }

  /**
   * The {@code UNKNOWN_TOOL} text, sent as the JSON-RPC {@code -32602} error message (the data
   * {@code {"code":"UNKNOWN_TOOL","available":[...]}} is the caller's).
   */
  public static String unknownToolMessage(String name, List<String> availableTools) {
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">");
    element(lines, "message", "The tool " + Echo.quoted(name) + " does not exist.");
    element(lines, "recovery", "Choose one of the available tools and call it again.");
    if (!availableTools.isEmpty()) {
      lines.add("<available_tools>");
      for (String tool : availableTools) {
        lines.add("  <tool>" + Markup.text(tool) + "</tool>");
      }
      lines.add("</available_tools>");
    }
    lines.add("</tool_error>");
    return String.join("\n", lines);
  }

  /** The recovery of a reply an egress filter withheld. */
  static final String RECOVERY_WITHHELD = "Do not retry with the same arguments; tell the user the"
      + " answer was withheld.";

  /**
   * The envelope of a reply an egress filter refused: the filter's {@code code} and
   * {@code message}, the incident id the server log repeats, and nothing of the refused data.
   */
  public static Reply withheld(String code, String message, String incidentId) {
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"" + Markup.attribute(code) + "\" severity=\"error\">");
    element(lines, "message", message + " (incident " + incidentId + ")");
    element(lines, "recovery", RECOVERY_WITHHELD);
    lines.add("</tool_error>");
    Map<String, Object> error = errorMeta(code, "error", RECOVERY_WITHHELD, List.of());
    error.put("incident", incidentId);
    return reply(lines, error);
  }

  /** A fresh incident id: 12 lowercase hex characters from a {@link SecureRandom}. */
  public static String newIncidentId() {
    byte[] bytes = new byte[6];
    RANDOM.nextBytes(bytes);
    char[] out = new char[12];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
      out[2 * i + 1] = HEX[bytes[i] & 0xF];
    }
    return new String(out);
  }

  private static String origin(String router, String action) {
    return action == null || action.isEmpty() ? router : router + "/" + action;
  }

  private static void element(List<String> lines, String name, String text) {
    if (text != null && !text.isBlank()) {
      lines.add("<" + name + ">" + Markup.text(text) + "</" + name + ">");
    }
  }

  private static void actionList(List<String> lines, List<String> renderedActions) {
    if (renderedActions.isEmpty()) {
      return;
    }
    lines.add("<available_actions>");
    for (String a : renderedActions) {
      lines.add("  <action>" + Markup.text(a) + "</action>");
    }
    lines.add("</available_actions>");
  }

  private static Map<String, Object> errorMeta(String code, String severity, String recovery,
      List<String> actions) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("severity", severity);
    if (recovery != null) {
      error.put("recovery", recovery);
    }
    error.put("actions", List.copyOf(actions));
    return error;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  private static Reply reply(List<String> lines, Map<String, Object> error) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(Meta.ERROR, error);
    // The code rides with the reply: whoever reads the outcome never parses what the agent reads.
    return Reply.error(List.of(String.join("\n", lines)), meta, (String) error.get("code"));
  }
}
