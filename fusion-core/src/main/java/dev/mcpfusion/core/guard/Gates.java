package dev.mcpfusion.core.guard;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The concurrency gates of one server while it is built: one gate per {@code maxConcurrent}
 * declaration. The server's is shared by every action, prompt, resource and completion that
 * inherits it; a class's by its members that inherit it, tools and prompts alike; a method's is its
 * own. Used at {@code build()} only, on one thread.
 */
public final class Gates {
  private final Map<String, ConcurrencyGate> byScope = new HashMap<>();

  /**
   * The gate of {@code limits}, or {@code null} when they set no {@code maxConcurrent}.
   *
   * @param owner names the class that declares the member (its router name, or its class name
   *     when it is no router): members of one class share the class's declaration
   * @param member names the member within the server (unique per method)
   */
  public ConcurrencyGate gate(ActionLimits limits, String owner, String member) {
    if (limits.maxConcurrent() <= 0) {
      return null;
    }
    String scope = switch (limits.gateScope()) {
      case "server" -> "server";
      case "router" -> "router:" + owner;
      default -> "method:" + owner + "#" + member;
    };
    return byScope.computeIfAbsent(scope + "/" + limits.maxConcurrent() + "/" + limits.queue(),
        k -> new ConcurrencyGate(limits.maxConcurrent(), limits.queue()));
  }

  /**
   * The most requests {@code gates} let in at once, running and waiting: each gate counted once,
   * however many members share it.
   */
  public static int capacity(Collection<ConcurrencyGate> gates) {
    java.util.Set<ConcurrencyGate> distinct = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    distinct.addAll(gates);
    long capacity = 0;
    for (ConcurrencyGate gate : distinct) {
      capacity += (long) gate.maxConcurrent() + gate.queue();
    }
    return (int) Math.min(Integer.MAX_VALUE, capacity);
  }
}
