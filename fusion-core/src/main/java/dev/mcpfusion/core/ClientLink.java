package dev.mcpfusion.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a call's {@link RequestContext} reaches the client that made the call: the framework's front
 * door implements it for every transport and protocol era. Connector code never implements or
 * calls it — it uses {@code RequestContext.progress}, {@code log}, {@code cancelled},
 * {@code sample} and {@code elicit}.
 */
public interface ClientLink {
  /** A link that reaches no client (in-memory calls): nothing is sent, nothing can be asked. */
  ClientLink NONE = new ClientLink() {
    @Override
    public boolean notify(String method, Map<String, Object> params) {
      return false;
    }

    @Override
    public LogLevel logLevel() {
      return null;
    }

    @Override
    public boolean cancelled() {
      return false;
    }

    @Override
    public String cannotAsk(String capability) {
      return "this call has no client to ask (it was not made over MCP)";
    }

    @Override
    public Map<String, Object> ask(String method, Map<String, Object> params, Duration timeout) {
      throw new IllegalStateException("no client");
    }
  };

  /**
   * Sends a notification about this call to the client, through the server's egress chain.
   *
   * @return whether it was sent (the chain withholds what a filter vetoes or the byte cap refuses)
   */
  boolean notify(String method, Map<String, Object> params);

  /** The least severe level the client wants ({@code logging/setLevel}); {@code null} to send none. */
  LogLevel logLevel();

  /** Whether the client cancelled this call. */
  boolean cancelled();

  /**
   * Why this call cannot send the client a request needing {@code capability} ({@code sampling},
   * {@code elicitation}), or {@code null} when it can.
   */
  String cannotAsk(String capability);

  /**
   * Sends the client a request and waits for its result (a plain JSON tree).
   *
   * @throws FusionError when the client answers with an error, does not answer within
   *     {@code timeout}, or the call is cancelled while waiting
   */
  Map<String, Object> ask(String method, Map<String, Object> params, Duration timeout);

  /**
   * One question for the client.
   *
   * @param key its key among a 2026-07-28 result's {@code inputRequests}, or {@code null} for one
   *     the link chooses
   * @param method {@code elicitation/create}, {@code sampling/createMessage} or {@code roots/list}
   * @param params the request's params (a plain JSON tree)
   */
  record Ask(String key, String method, Map<String, Object> params) {}

  /**
   * Asks the client every question of {@code asks} and returns their results, in order. By default
   * one request after the other ({@link #ask}); a 2026-07-28 call gathers them into one
   * input-required result instead.
   */
  default List<Map<String, Object>> askAll(List<Ask> asks, Duration timeout) {
    List<Map<String, Object>> results = new ArrayList<>(asks.size());
    for (Ask a : asks) {
      results.add(ask(a.method(), a.params(), timeout));
    }
    return results;
  }

  /**
   * Whether the client declared {@code capability} ({@code sampling}, {@code elicitation},
   * {@code roots}): when it initialized its session, or in this 2026-07-28 request's
   * {@code io.modelcontextprotocol/clientCapabilities}.
   */
  default boolean declared(String capability) {
    return false;
  }

  /**
   * Carries {@code value} under {@code key} into the request state of a 2026-07-28 call's next
   * round. By default nothing: the call's {@code RequestContext} keeps it for the call itself.
   */
  default void carry(String key, String value) {}

  /** The value an earlier round of this call carried under {@code key}, or {@code null}. */
  default String carried(String key) {
    return null;
  }

  /**
   * Turns this call into a task, answering the client with the task's handle, and says whether
   * it did (or had already): only a 2026-07-28 call of a {@code @TaskSupport(inputFirst = true)}
   * action from a client that declared the tasks extension can. By default {@code false}.
   */
  default boolean startTask() {
    return false;
  }
}
