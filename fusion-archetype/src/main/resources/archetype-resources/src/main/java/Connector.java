package ${package};

import dev.mcpfusion.core.FusionServer;
import ${package}.router.TaskTools;
import ${package}.store.TaskStore;

/** How the connector is assembled: one place for Main and the tests. */
public final class Connector {
  private Connector() {}

  /** The server builder over a store. */
  public static FusionServer.Builder builder(TaskStore store) {
    return FusionServer.builder("${artifactId}", "${version}")
        .register(new TaskTools(store));
  }
}
