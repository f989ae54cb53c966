package dev.mcpfusion.core;

import java.time.Duration;
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
}
