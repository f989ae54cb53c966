package dev.mcpfusion.wire;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The MCP request headers of the HTTP transports, and which body member each standard header of
 * the 2026-07-28 era mirrors: {@code Mcp-Method} the JSON-RPC {@code method} of every request and
 * notification, {@code Mcp-Name} the {@code params.name} or {@code params.uri} of the methods that
 * address one tool, prompt or resource.
 */
public final class McpHeaders {
  private McpHeaders() {}

  /** The protocol version; in the 2026-07-28 era it must equal the one in {@code params._meta}. */
  public static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  /** The 2025 era's session. */
  public static final String SESSION_ID = "Mcp-Session-Id";
  /** 2026-07-28: the JSON-RPC method, on every request and notification. */
  public static final String METHOD = "Mcp-Method";
  /**
   * 2026-07-28: the addressed tool, prompt, resource or task, on the methods {@link #nameMember}
   * names.
   */
  public static final String NAME = "Mcp-Name";

  /**
   * 2026-07-28 (SEP-2243): the prefix of a custom header that mirrors one tool argument,
   * {@code Mcp-Param-Region} for the property whose schema says {@link #X_MCP_HEADER}
   * {@code "Region"}.
   */
  public static final String PARAM_PREFIX = "Mcp-Param-";
  /** The input-schema keyword that names the custom header a property is mirrored in. */
  public static final String X_MCP_HEADER = "x-mcp-header";
  /** The property types an {@link #X_MCP_HEADER} may mark (the TypeScript SDK accepts number too). */
  private static final Set<String> HEADER_TYPES = Set.of("string", "integer", "number", "boolean");

  /**
   * The arguments a tool's input schema mirrors in custom headers: each top-level property of a
   * primitive type that says {@link #X_MCP_HEADER}, mapped to its header name ({@code Region} for
   * {@code Mcp-Param-Region}), in schema order; empty when there is none.
   */
  public static Map<String, String> paramHeaders(Map<String, Object> inputSchema) {
    Map<String, String> marked = new LinkedHashMap<>();
    if (inputSchema != null && inputSchema.get("properties") instanceof Map<?, ?> properties) {
      for (Map.Entry<?, ?> e : properties.entrySet()) {
        if (e.getValue() instanceof Map<?, ?> property
            && property.get(X_MCP_HEADER) instanceof String header
            && property.get("type") instanceof String type && HEADER_TYPES.contains(type)) {
          marked.put(String.valueOf(e.getKey()), header);
        }
      }
    }
    return marked;
  }

  // The tasks extension (SEP-2663, "Streamable HTTP: Routing Headers") adds its three methods that
  // address one task, so an intermediary can route them to the instance that runs it.
  private static final Map<String, String> NAME_MEMBERS = Map.of(
      JsonRpc.TOOLS_CALL, "name",
      JsonRpc.PROMPTS_GET, "name",
      JsonRpc.RESOURCES_READ, "uri",
      JsonRpc.TASKS_GET, "taskId",
      JsonRpc.TASKS_UPDATE, "taskId",
      JsonRpc.TASKS_CANCEL, "taskId");

  /**
   * The {@code params} member that {@link #NAME} mirrors for {@code method}, or {@code null} when
   * the method carries no {@code Mcp-Name}.
   */
  public static String nameMember(String method) {
    return method == null ? null : NAME_MEMBERS.get(method);
  }
}
