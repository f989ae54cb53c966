package dev.mcpfusion.testing.internal;

import io.modelcontextprotocol.common.McpTransportContext;
import java.util.Map;
import java.util.Objects;

/**
 * Receives the raw JSON text of the reply to one client request.
 *
 * <p>Put it in the client's {@link McpTransportContext} under {@link #CONTEXT_KEY} (the SDK carries
 * that context from the calling thread to the transport): the {@link InProcessTransport} remembers
 * the id of the next request of {@link #method()} sent in that context and completes the capture
 * with the text of the response carrying that id, before the client sees the response.
 */
public final class ReplyCapture {
  /** The key of a capture in a {@link McpTransportContext}. */
  public static final String CONTEXT_KEY = "dev.mcpfusion.testing.replyCapture";

  private final String method;
  private volatile String raw;

  /** A capture for the reply to the next request of {@code method} (e.g. {@code tools/call}). */
  public ReplyCapture(String method) {
    this.method = Objects.requireNonNull(method, "method");
  }

  /** The JSON-RPC method whose reply is captured. */
  public String method() {
    return method;
  }

  /** A transport context that carries this capture. */
  public McpTransportContext asTransportContext() {
    return McpTransportContext.create(Map.of(CONTEXT_KEY, this));
  }

  /** The raw reply text, or {@code null} if no reply arrived (yet). */
  public String raw() {
    return raw;
  }

  void complete(String text) {
    this.raw = text;
  }
}
