package dev.mcpfusion.core.edge;

import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import java.util.Map;

/**
 * One JSON-RPC message as the edge read it: parsed once, its envelope checked. A message the edge
 * cannot accept ({@link Kind#INVALID}) carries the JSON-RPC error it is answered with.
 *
 * <p>Immutable. Transports look at a message only to frame it (HTTP: is it {@code initialize},
 * a notification, a 2026-07-28 request?); everything else about it is the edge's business.
 */
public final class Message {
  /** What the envelope says the message is. */
  public enum Kind {
    /** A method call with an id: exactly one reply is owed. */
    REQUEST,
    /** A method call without an id: never answered. */
    NOTIFICATION,
    /** The client's answer to a request the server sent. */
    RESPONSE,
    /** Not acceptable (unreadable JSON, bad envelope, too large): answered with {@link #errorCode()}. */
    INVALID
  }

  private final Kind kind;
  private final Object id;
  private final String method;
  private final Map<String, Object> tree;
  private final int errorCode;
  private final String errorMessage;
  /**
   * Whether the path serving this request's target started its span; until then a reply to it
   * gets a span named after its method alone ({@link MessageTraces#untargeted}). Set on the
   * request's thread, read where its reply is written (a deadline's timer thread too).
   */
  private volatile boolean targetTraced;

  private Message(Kind kind, Object id, String method, Map<String, Object> tree, int errorCode,
      String errorMessage) {
    this.kind = kind;
    this.id = id;
    this.method = method;
    this.tree = tree;
    this.errorCode = errorCode;
    this.errorMessage = errorMessage;
  }

  static Message request(Object id, String method, Map<String, Object> tree) {
    return new Message(Kind.REQUEST, id, method, tree, 0, null);
  }

  static Message notification(String method, Map<String, Object> tree) {
    return new Message(Kind.NOTIFICATION, null, method, tree, 0, null);
  }

  static Message response(Object id, Map<String, Object> tree) {
    return new Message(Kind.RESPONSE, id, null, tree, 0, null);
  }

  static Message invalid(Object id, int code, String message) {
    return new Message(Kind.INVALID, id, null, null, code, message);
  }

  /** What the envelope says the message is. */
  public Kind kind() {
    return kind;
  }

  /** The id (a {@code String} or a {@code Number}), or {@code null} when there is none or none could be read. */
  public Object id() {
    return id;
  }

  /** The method of a request or notification, else {@code null}. */
  public String method() {
    return method;
  }

  /** Whether this is a request of {@code method}. */
  public boolean isRequest(String method) {
    return kind == Kind.REQUEST && method.equals(this.method);
  }

  /** The {@code params} object, or {@code null} when absent or not an object. */
  public Map<?, ?> params() {
    return tree != null && tree.get("params") instanceof Map<?, ?> params ? params : null;
  }

  /** The raw {@code params} value as sent (possibly not an object). */
  Object rawParams() {
    return tree == null ? null : tree.get("params");
  }

  /** The whole message as a plain JSON tree ({@code null} when {@link Kind#INVALID}). */
  public Map<String, Object> tree() {
    return tree;
  }

  /**
   * The 2026-07-28 routing rule: a request or notification whose {@code params._meta} carries
   * {@code io.modelcontextprotocol/protocolVersion} (every 2026-07-28 message does, no earlier one
   * does), or a {@code server/discover} request.
   */
  public boolean isModern() {
    if (kind == Kind.REQUEST && JsonRpc.DISCOVER.equals(method)) {
      return true;
    }
    Map<?, ?> params = params();
    return (kind == Kind.REQUEST || kind == Kind.NOTIFICATION) && params != null
        && params.get("_meta") instanceof Map<?, ?> meta
        && meta.containsKey(Meta.PROTOCOL_VERSION);
  }

  /** The protocol version in {@code params._meta}, or {@code null}. */
  Object metaProtocolVersion() {
    Map<?, ?> params = params();
    return params != null && params.get("_meta") instanceof Map<?, ?> meta
        ? meta.get(Meta.PROTOCOL_VERSION) : null;
  }

  /** The span of this request was started by the path that serves its target. */
  void targetTraced() {
    targetTraced = true;
  }

  /** Whether {@link #targetTraced()} was called. */
  boolean isTargetTraced() {
    return targetTraced;
  }

  /** The JSON-RPC error code an {@link Kind#INVALID} message is answered with. */
  public int errorCode() {
    return errorCode;
  }

  /** The message of that error. */
  public String errorMessage() {
    return errorMessage;
  }

  @Override
  public String toString() {
    return kind == Kind.INVALID
        ? "Message[INVALID " + errorCode + " id=" + id + "]"
        : "Message[" + kind + " " + (method == null ? "" : method + " ") + "id=" + id + "]";
  }
}
