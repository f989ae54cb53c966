package dev.mcpfusion.core.server;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.ProbeTools;
import dev.mcpfusion.core.server.fixture.Recorder;
import dev.mcpfusion.core.server.fixture.Tenant;
import dev.mcpfusion.core.server.fixture.Trail;
import dev.mcpfusion.core.server.fixture.WorkspaceTools;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Servers over the hand-written fixtures. */
final class Servers {
  private Servers() {}

  static FusionServer.Builder billing(Exposition exposition) {
    return FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .exposition(exposition)
        .context(Tenant.class, request -> request.header("x-tenant").map(Tenant::new)
            .orElse(new Tenant("t_777")));
  }

  static FusionServer full(Exposition exposition) {
    return billing(exposition)
        .register(new WorkspaceTools())
        .register(new ProbeTools())
        .context(Recorder.class, request -> new Recorder())
        .middleware(new Trail("server"))
        .provide(new Trail.RouterTrail("router"), new Trail.MethodTrail("method"))
        .build();
  }

  static McpSchema.Tool tool(FusionServer server, String name) {
    return server.edge().tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  static McpSchema.CallToolResult call(FusionServer server, String tool, Map<String, ?> args) {
    return Results.toMcp(server.edge().call(tool, args, RequestContext.empty()));
  }

  static McpSchema.CallToolResult call(FusionServer server, String tool, Map<String, ?> args,
      RequestContext request) {
    return Results.toMcp(server.edge().call(tool, args, request));
  }

  static List<String> texts(McpSchema.CallToolResult result) {
    List<String> out = new ArrayList<>();
    for (McpSchema.Content content : result.content()) {
      out.add(((McpSchema.TextContent) content).text());
    }
    return out;
  }

  static String text(McpSchema.CallToolResult result) {
    return String.join("\n\n", texts(result));
  }
}
