package dev.mcpfusion.testing;

import dev.mcpfusion.json.Json;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A request in flight, started with {@link FusionTester#callAsync} or {@link FusionTester#listen}:
 * cancel it, or await its result.
 */
public final class PendingCall {
  private final TesterSession session;
  private final long id;
  private final CompletableFuture<String> reply;

  PendingCall(TesterSession session, long id, CompletableFuture<String> reply) {
    this.session = session;
    this.id = id;
    this.reply = reply;
  }

  /** The call's JSON-RPC request id. */
  public long id() {
    return id;
  }

  /** Sends {@code notifications/cancelled} for this call. */
  public void cancel() {
    session.wire().notify(Json.write(Map.of("jsonrpc", "2.0", "method", "notifications/cancelled",
        "params", Map.of("requestId", id, "reason", "cancelled by the test"))));
  }

  /** The result, if the server replied within {@code timeout}; empty when no reply came. */
  public Optional<ToolResult> await(Duration timeout) {
    try {
      return Optional.of(ToolResult.fromReply(
          reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS)));
    } catch (TimeoutException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (ExecutionException e) {
      throw new IllegalStateException("The call failed", e.getCause());
    }
  }
}
