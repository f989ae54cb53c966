package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.server.ExposedTool;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registry's tools for the SDK's modern tools feature, which answers {@code tools/list} in the
 * 2026-07-28 era: the same definitions as the classic {@code tools/list} (converted through their
 * JSON, so the wire is the same). The edge answers every {@code tools/call} itself; should a call
 * ever reach the SDK, it runs the same handler.
 */
final class FusionToolRepository implements McpSyncToolRepository {
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};

  private final ToolCalls calls;
  private final List<McpSchema.Tool> tools;
  private final Map<String, McpSyncTool> byName = new LinkedHashMap<>();

  FusionToolRepository(ToolCalls calls, McpJsonMapper mapper) {
    this.calls = calls;
    List<McpSchema.Tool> converted = new ArrayList<>();
    for (io.modelcontextprotocol.spec.McpSchema.Tool classic : calls.registry().mcpTools()) {
      Map<String, Object> json = mapper.convertValue(classic, MAP);
      McpSchema.Tool tool = mapper.convertValue(json, McpSchema.Tool.class);
      converted.add(tool);
      byName.put(tool.name(), McpSyncTool.of(tool, this::call));
    }
    this.tools = List.copyOf(converted);
  }

  /** The input schemas of our tools, by identity: the ones the SDK's validator must leave to us. */
  Set<Map<String, Object>> inputSchemas() {
    Set<Map<String, Object>> schemas = Collections.newSetFromMap(new IdentityHashMap<>());
    for (McpSyncTool tool : byName.values()) {
      schemas.add(tool.definition().inputSchema());
    }
    return schemas;
  }

  @Override
  public ToolsPage list(McpRequestContext context, String cursor) {
    return ToolsPage.of(tools);
  }

  @Override
  public McpSyncTool find(McpRequestContext context, String name) {
    return name == null ? null : byName.get(name);
  }

  private McpSyncResponse<McpSchema.CallToolOutcome> call(McpRequestContext context,
      McpSchema.CallToolRequest request) {
    ExposedTool tool = calls.find(request.name());
    Map<String, Object> meta = request.meta() != null ? request.meta() : context.meta();
    var reply = calls.call(tool, request.arguments(),
        RequestContext.of(null, meta, null, context.protocolVersion()));
    McpSchema.CallToolResult.Builder result = McpSchema.CallToolResult.builder();
    for (String block : reply.blocks()) {
      result.addContent(McpSchema.TextContent.builder(block).build());
    }
    if (reply.blocks().isEmpty()) {
      result.addContent(McpSchema.TextContent.builder(reply.isError() ? "The tool failed." : "OK").build());
    }
    if (reply.structuredContent() != null) {
      result.structuredContent(reply.structuredContent());
    }
    result.isError(reply.isError());
    if (!reply.meta().isEmpty()) {
      result.meta(new LinkedHashMap<>(reply.meta()));
    }
    return McpSyncResponse.result(result.build());
  }
}
