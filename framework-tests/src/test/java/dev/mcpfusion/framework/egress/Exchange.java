package dev.mcpfusion.framework.egress;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One request of the client and everything the server wrote while it was in flight: the
 * notifications and server requests before the reply, and the reply itself (the last message of
 * {@link #received}, unless more was awaited after it).
 *
 * @param method the request's method
 * @param params the request's params as sent (the era's {@code _meta} included)
 * @param reply the response to the request
 */
record Exchange(String method, Map<String, Object> params, Received reply,
    List<Received> received) {

  /** This exchange with {@code more} received after its reply. */
  Exchange and(List<Received> more) {
    List<Received> all = new ArrayList<>(received);
    all.addAll(more);
    return new Exchange(method, params, reply, List.copyOf(all));
  }

  /** The reply as a plain JSON tree. */
  Map<String, Object> replyTree() {
    return reply.tree();
  }

  /** Whether the reply is a JSON-RPC result (not an error). */
  boolean succeeded() {
    return replyTree().get("result") instanceof Map<?, ?>;
  }

  /** Whether anything received carries a message with {@code method}. */
  boolean saw(String method) {
    return received.stream().anyMatch(r -> method.equals(r.method()));
  }
}
