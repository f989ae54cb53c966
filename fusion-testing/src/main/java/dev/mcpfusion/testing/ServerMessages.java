package dev.mcpfusion.testing;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.testing.FusionTester.ClientRequest;
import dev.mcpfusion.testing.FusionTester.LogMessage;
import dev.mcpfusion.testing.FusionTester.Progress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what the server sent a {@link FusionTester}'s client, in order: its requests (sampling,
 * elicitation) and its notifications (progress, log messages, resource updates).
 */
final class ServerMessages {
  private ServerMessages() {}

  static List<ClientRequest> clientRequests(List<String> sent) {
    List<ClientRequest> out = new ArrayList<>();
    for (Map<?, ?> m : parsed(sent)) {
      if (m.get("method") instanceof String method && m.containsKey("id")) {
        out.add(new ClientRequest(method, plain(m.get("params"))));
      } else if (m.get("result") instanceof Map<?, ?> result
          && "input_required".equals(result.get("resultType"))
          && result.get("inputRequests") instanceof Map<?, ?> requests) {
        // 2026-07-28: the server asks inside an input-required result.
        for (Object request : requests.values()) {
          if (request instanceof Map<?, ?> r && r.get("method") instanceof String method) {
            out.add(new ClientRequest(method, plain(r.get("params"))));
          }
        }
      }
    }
    return List.copyOf(out);
  }

  static List<Progress> progress(List<String> sent) {
    List<Progress> out = new ArrayList<>();
    for (Map<?, ?> m : notifications(sent, "notifications/progress")) {
      Map<String, Object> p = plain(m.get("params"));
      out.add(new Progress(p.get("progressToken"), (Number) p.get("progress"), (Number) p.get("total"),
          (String) p.get("message")));
    }
    return List.copyOf(out);
  }

  static List<LogMessage> logs(List<String> sent) {
    List<LogMessage> out = new ArrayList<>();
    for (Map<?, ?> m : notifications(sent, "notifications/message")) {
      Map<String, Object> p = plain(m.get("params"));
      out.add(new LogMessage((String) p.get("level"), p.get("data")));
    }
    return List.copyOf(out);
  }

  static List<String> resourceUpdates(List<String> sent) {
    List<String> uris = new ArrayList<>();
    for (String message : sent) {
      // Most messages are replies: skip the parse unless the method name is in the text.
      if (message.contains("notifications/resources/updated")
          && Json.parse(message) instanceof Map<?, ?> m
          && "notifications/resources/updated".equals(m.get("method"))
          && m.get("params") instanceof Map<?, ?> params) {
        uris.add(String.valueOf(params.get("uri")));
      }
    }
    return uris;
  }

  /** A tree's top-level members with string keys; empty for anything but an object. */
  static Map<String, Object> plain(Object tree) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (tree instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put(String.valueOf(k), v));
    }
    return out;
  }

  private static List<Map<?, ?>> notifications(List<String> sent, String method) {
    List<Map<?, ?>> out = new ArrayList<>();
    for (Map<?, ?> m : parsed(sent)) {
      if (method.equals(m.get("method")) && !m.containsKey("id")) {
        out.add(m);
      }
    }
    return out;
  }

  private static List<Map<?, ?>> parsed(List<String> sent) {
    List<Map<?, ?>> out = new ArrayList<>();
    for (String text : sent) {
      if (Json.parse(text) instanceof Map<?, ?> m) {
        out.add(m);
      }
    }
    return out;
  }
}
