package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.NonBlocking;
import dev.mcpfusion.annotation.SerializeOn;
import dev.mcpfusion.core.guard.KeyedGate;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;

/**
 * How an action's handler runs, read from its method once when the server is built: whether it
 * answers with a {@code CompletionStage} (the call then holds no thread while it waits), and the
 * {@code @SerializeOn} gate its calls with the same key pass one at a time, and whether it is
 * declared {@code @NonBlocking}.
 *
 * @param async whether the method returns a {@code CompletionStage} (or {@code CompletableFuture})
 * @param keys the action's per-key gate, or {@code null} when its calls are not serialised
 * @param nonBlocking whether the method is annotated {@code @NonBlocking}
 */
public record RunMode(boolean async, KeyedGate keys, boolean nonBlocking) {
  /** A blocking handler whose calls are not serialised. */
  public static final RunMode BLOCKING = new RunMode(false, null, false);

  /** A handler not declared {@code @NonBlocking}. */
  public RunMode(boolean async, KeyedGate keys) {
    this(async, keys, false);
  }

  /**
   * Whether the handler's own code never blocks: it answers with a stage, or it is declared
   * {@code @NonBlocking}.
   */
  public boolean returnsWithoutBlocking() {
    return async || nonBlocking;
  }

  /** The run mode of {@code method} ({@code null}: the method cannot be found, {@link #BLOCKING}). */
  static RunMode of(Method method) {
    if (method == null) {
      return BLOCKING;
    }
    boolean async = CompletionStage.class.isAssignableFrom(method.getReturnType());
    SerializeOn serialize = method.getAnnotation(SerializeOn.class);
    KeyedGate keys = serialize == null || serialize.queue() < 0 ? null
        : new KeyedGate(serialize.value(), serialize.queue());
    boolean nonBlocking = method.isAnnotationPresent(NonBlocking.class);
    return async || keys != null || nonBlocking ? new RunMode(async, keys, nonBlocking) : BLOCKING;
  }
}
