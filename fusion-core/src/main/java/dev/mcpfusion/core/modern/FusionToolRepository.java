package dev.mcpfusion.core.modern;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registry's tools for the SDK's modern tools feature: the same definitions as the classic
 * {@code tools/list} (converted through their JSON, so the wire is the same), each call run by
 * {@link FusionServer#call} through the one pipeline.
 */
final class FusionToolRepository implements McpSyncToolRepository {
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};

  private final FusionServer fusion;
  private final List<McpSchema.Tool> tools;
  private final Map<String, McpSyncTool> byName = new LinkedHashMap<>();

  FusionToolRepository(FusionServer fusion, McpJsonMapper mapper) {
    this.fusion = fusion;
    List<McpSchema.Tool> converted = new ArrayList<>();
    for (io.modelcontextprotocol.spec.McpSchema.Tool classic : fusion.tools()) {
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
    // Unknown tools never get here: the edge answers them first (ModernEra.edge).
    return name == null ? null : byName.get(name);
  }

  private McpSyncResponse<McpSchema.CallToolOutcome> call(McpRequestContext context,
      McpSchema.CallToolRequest request) {
    io.modelcontextprotocol.spec.McpSchema.CallToolResult classic =
        fusion.call(request.name(), request.arguments(), requestContext(context, request));
    return McpSyncResponse.result(toModern(classic));
  }

  /** The classic result, item for item: text blocks, structuredContent, isError and _meta. */
  static McpSchema.CallToolResult toModern(io.modelcontextprotocol.spec.McpSchema.CallToolResult classic) {
    McpSchema.CallToolResult.Builder result = McpSchema.CallToolResult.builder();
    for (io.modelcontextprotocol.spec.McpSchema.Content content : classic.content()) {
      // The pipeline only produces text content (Results.toMcp).
      String text = ((io.modelcontextprotocol.spec.McpSchema.TextContent) content).text();
      result.addContent(McpSchema.TextContent.builder(text).build());
    }
    if (classic.structuredContent() != null) {
      result.structuredContent(classic.structuredContent());
    }
    if (Boolean.TRUE.equals(classic.isError())) {
      result.isError(true);
    } else {
      result.isError(false);
    }
    if (classic.meta() != null) {
      result.meta(new LinkedHashMap<>(classic.meta()));
    }
    return result.build();
  }

  /** What the pipeline's context sees: transport headers, params._meta, the protocol version. */
  private static RequestContext requestContext(McpRequestContext context,
      McpSchema.CallToolRequest request) {
    Map<String, String> headers = new LinkedHashMap<>();
    McpTransportContext transport = context.transportContext();
    if (transport != null && transport.get(FusionServer.TRANSPORT_HEADERS) instanceof Map<?, ?> raw) {
      for (Map.Entry<?, ?> entry : raw.entrySet()) {
        if (entry.getKey() == null || entry.getValue() == null) {
          continue;
        }
        Object value = entry.getValue();
        String text = value instanceof Collection<?> values
            ? String.join(", ", values.stream().map(String::valueOf).toList())
            : String.valueOf(value);
        headers.put(String.valueOf(entry.getKey()), text);
      }
    }
    Map<String, Object> meta = request.meta() != null ? request.meta() : context.meta();
    return RequestContext.of(headers, meta, null, context.protocolVersion());
  }
}
