package dev.mcpfusion.core.edge;

import dev.mcpfusion.wire.input.InputRound;
import dev.mcpfusion.wire.input.RequestStates;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Input-required results of the 2026-07-28 era at the edge (SEP-2322): reads the client's
 * {@code inputResponses} and {@code requestState} of a {@code tools/call}, {@code prompts/get} or
 * {@code resources/read} into the request's {@link InputRound} — refusing, with -32602 and the way
 * to start over, a state that was edited, belongs to another request, has expired or is larger than
 * any this server issues — and writes the input-required result of a handler that asked.
 */
final class InputRequired {
  /** What every refusal adds: the client can always start the request over. */
  private static final String START_OVER = " Send the request again without requestState and"
      + " inputResponses to start over.";

  private final RequestStates states;
  private final String serverInfoMember;

  InputRequired(RequestStates states, String serverInfoMember) {
    this.states = states;
    this.serverInfoMember = serverInfoMember;
  }

  /** The binding of a request of {@code method} on {@code target} with {@code arguments}. */
  static String binding(String method, String target, Object arguments) {
    return RequestStates.binding(method, target, arguments == null ? Map.of() : arguments);
  }

  /**
   * The binding of a {@code prompts/get} (its name and arguments) or {@code resources/read} (its
   * URI), the requests besides {@code tools/call} that may answer with an input-required result;
   * {@code null} for any other request.
   */
  static String binding(String method, Map<?, ?> params) {
    Map<?, ?> p = params == null ? Map.of() : params;
    if (JsonRpc.PROMPTS_GET.equals(method)) {
      return binding(method, String.valueOf(p.get("name")), p.get("arguments"));
    }
    if (JsonRpc.RESOURCES_READ.equals(method)) {
      return binding(method, String.valueOf(p.get("uri")), null);
    }
    return null;
  }

  /**
   * {@code sink}, except that the reply of a request whose handler waits for the answers of
   * {@code round} is its input-required result instead.
   */
  Sink answering(Sink sink, InputRound round, String binding) {
    return new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        if (!round.waiting()) {
          sink.reply(id, errorCode, json);
          return;
        }
        byte[] body;
        try {
          body = result(id, round, binding);
        } catch (RequestStates.TooLarge e) {
          sink.reply(id, JsonRpc.INVALID_PARAMS, tooLarge(id, e));
          return;
        }
        sink.reply(id, 0, body);
      }

      @Override
      public void replyWhileHeld(Object id, int errorCode, byte[] json) {
        sink.replyWhileHeld(id, errorCode, json);
      }

      @Override
      public void push(byte[] json) {
        sink.push(json);
      }

    };
  }

  /**
   * The input round of {@code message}, or {@code null} when its {@code inputResponses} or
   * {@code requestState} cannot be used: the -32602 reply has then been written to {@code out}.
   */
  @SuppressWarnings("unchecked")
  InputRound round(Message message, String binding, Sink out) {
    Map<?, ?> params = message.params();
    Object id = message.id();
    Map<String, Map<String, Object>> responses = null;
    if (params != null && params.containsKey("inputResponses")) {
      if (!(params.get("inputResponses") instanceof Map<?, ?> given)) {
        return refuse(id, "Invalid params: inputResponses must be an object that maps the key of each"
            + " input request to the client's result for it, but was " + kind(params.get("inputResponses"))
            + "." + START_OVER, out);
      }
      responses = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : given.entrySet()) {
        String key = String.valueOf(e.getKey());
        if (!(e.getValue() instanceof Map<?, ?> result)) {
          return refuse(id, "Invalid params: inputResponses." + Echo.quoted(key) + " must be an object"
              + " (the client's result for that input request), but was " + kind(e.getValue()) + ".",
              out);
        }
        responses.put(key, (Map<String, Object>) result);
      }
    }
    Map<String, Object> payload = null;
    if (params != null && params.containsKey("requestState")) {
      if (!(params.get("requestState") instanceof String state)) {
        return refuse(id, "Invalid params: requestState must be the string this server sent, but was "
            + kind(params.get("requestState")) + "." + START_OVER, out);
      }
      try {
        payload = states.open(state, binding);
      } catch (RequestStates.Rejected e) {
        return refuse(id, "Invalid params: " + e.getMessage() + START_OVER, out);
      }
    }
    return InputRound.of(payload, responses);
  }

  private static InputRound refuse(Object id, String message, Sink out) {
    out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS, message));
    return null;
  }

  private static String kind(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return value instanceof java.util.List<?> ? "an array" : "an object";
  }

  /**
   * The input-required result of a request whose handler waits for the answers of {@code round}.
   *
   * @throws RequestStates.TooLarge when the state to carry exceeds the server's limit
   */
  byte[] result(Object id, InputRound round, String binding) {
    String state = states.seal(binding, round.payload());
    StringBuilder out = new StringBuilder(256 + state.length());
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    Json.appendValue(id, out);
    out.append(",\"result\":{\"resultType\":\"input_required\",\"inputRequests\":");
    Json.appendValue(round.inputRequests(), out);
    out.append(",\"requestState\":");
    Json.appendString(state, out);
    out.append(",\"_meta\":{").append(serverInfoMember).append("}}}");
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The error of a request whose answers so far need more request state than the server carries. */
  static byte[] tooLarge(Object id, RequestStates.TooLarge e) {
    return Bodies.error(id, JsonRpc.INVALID_PARAMS, "Invalid params: the answers gathered so far need "
        + e.size() + " bytes of requestState, more than the " + e.limit() + " bytes this server"
        + " carries. Answer with less (shorter text, fewer values), or send the request again"
        + " without requestState and inputResponses to start over.");
  }
}
