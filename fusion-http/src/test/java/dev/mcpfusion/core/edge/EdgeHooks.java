package dev.mcpfusion.core.edge;

/** Reaches the edge's test seam from fusion-http's tests (same package, test classpath only). */
public final class EdgeHooks {
  private EdgeHooks() {}

  /** Makes every tool result of {@code edge} fail to be written with {@code failure}. */
  public static void failResultWriting(Edge edge, RuntimeException failure) {
    edge.resultWriter((id, reply, modern) -> {
      throw failure;
    });
  }
}
