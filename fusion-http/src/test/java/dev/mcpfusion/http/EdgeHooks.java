package dev.mcpfusion.http;

import dev.mcpfusion.core.edge.Edge;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Reaches the edge's package-private result-writer seam from fusion-http's tests, which run on the
 * class path: the seam exists only to prove that a result that cannot be written is answered, and
 * is deliberately not API.
 */
final class EdgeHooks {
  private EdgeHooks() {}

  /** Makes every tool result of {@code edge} fail to be written with {@code failure}. */
  static void failResultWriting(Edge edge, RuntimeException failure) throws ReflectiveOperationException {
    Class<?> writer = Class.forName("dev.mcpfusion.core.edge.Edge$ResultWriter");
    Object failing = Proxy.newProxyInstance(Edge.class.getClassLoader(), new Class<?>[] {writer},
        (proxy, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return method.getName().equals("toString") ? "failing writer" : null;
          }
          throw failure;
        });
    Method set = Edge.class.getDeclaredMethod("resultWriter", writer);
    set.setAccessible(true);
    set.invoke(edge, failing);
  }
}
