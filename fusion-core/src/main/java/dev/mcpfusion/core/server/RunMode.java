package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.SerializeOn;
import dev.mcpfusion.core.guard.KeyedGate;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;

/**
 * How an action's handler runs, read from its method once when the server is built: whether it
 * answers with a {@code CompletionStage} (the call then holds no thread while it waits), and the
 * {@code @SerializeOn} gate its calls with the same key pass one at a time.
 *
 * @param async whether the method returns a {@code CompletionStage} (or {@code CompletableFuture})
 * @param keys the action's per-key gate, or {@code null} when its calls are not serialised
 */
public record RunMode(boolean async, KeyedGate keys) {
  /** A blocking handler whose calls are not serialised. */
  public static final RunMode BLOCKING = new RunMode(false, null);

  /** The run mode of {@code method} ({@code null}: the method cannot be found, {@link #BLOCKING}). */
  static RunMode of(Method method) {
    if (method == null) {
      return BLOCKING;
    }
    boolean async = CompletionStage.class.isAssignableFrom(method.getReturnType());
    SerializeOn serialize = method.getAnnotation(SerializeOn.class);
    KeyedGate keys = serialize == null || serialize.queue() < 0 ? null
        : new KeyedGate(serialize.value(), serialize.queue());
    return async || keys != null ? new RunMode(async, keys) : BLOCKING;
  }
}
