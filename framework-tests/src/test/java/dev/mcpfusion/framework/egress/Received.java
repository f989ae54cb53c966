package dev.mcpfusion.framework.egress;

import java.util.Map;

/**
 * Something the server wrote to the client, as it arrived: {@link #raw} is every byte of it as text
 * (a stdout line, an HTTP body, one SSE event with its {@code event:}/{@code data:} lines, a
 * response's status and headers), {@link #json} the JSON-RPC message it carries, or {@code null}
 * when it carries none. Immutable; the message is parsed once, when first read.
 */
final class Received {
  private final String via;
  private final String raw;
  private final String json;
  private Map<String, Object> tree;
  private boolean parsed;

  /**
   * @param via where it arrived, e.g. {@code stdout}, {@code POST event}, {@code GET event}
   */
  Received(String via, String raw, String json) {
    this.via = via;
    this.raw = raw;
    this.json = json;
  }

  String via() {
    return via;
  }

  String raw() {
    return raw;
  }

  String json() {
    return json;
  }

  /** The message as a plain JSON tree, or {@code null}. */
  synchronized Map<String, Object> tree() {
    if (!parsed) {
      tree = json == null || json.isBlank() ? null : Json.object(json);
      parsed = true;
    }
    return tree;
  }

  /** The JSON-RPC method of a notification or server request, or {@code null}. */
  String method() {
    Map<String, Object> t = tree();
    return t != null && t.get("method") instanceof String m ? m : null;
  }

  /** Whether this is a request the server sent the client (it has a method and an id). */
  boolean isServerRequest() {
    Map<String, Object> t = tree();
    return t != null && t.get("method") instanceof String && t.containsKey("id");
  }

  /** Whether this is a response (a result or an error) rather than a server-initiated message. */
  boolean isResponse() {
    Map<String, Object> t = tree();
    return t != null && !t.containsKey("method")
        && (t.containsKey("result") || t.containsKey("error"));
  }

  /** Whether this is the response to the client's request {@code id}. */
  boolean answers(Object id) {
    return isResponse() && String.valueOf(id).equals(String.valueOf(tree().get("id")));
  }

  @Override
  public String toString() {
    return via + ": " + (raw.length() > 300 ? raw.substring(0, 300) + "…" : raw);
  }
}
