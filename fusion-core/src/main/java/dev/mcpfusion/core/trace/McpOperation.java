package dev.mcpfusion.core.trace;

/**
 * The attributes of one {@link McpMetrics#SERVER_OPERATION_DURATION} measurement, named as the
 * OpenTelemetry MCP conventions name them; each is {@code null} when it does not apply.
 *
 * @param method {@code mcp.method.name}, e.g. {@code tools/call}
 * @param toolName {@code gen_ai.tool.name}: a declared tool, or {@link McpMetrics#OTHER} for one the
 *     server does not have
 * @param promptName {@code gen_ai.prompt.name}: a declared prompt, or {@link McpMetrics#OTHER}
 * @param errorType {@code error.type}: the answer's code ({@code VALIDATION_ERROR},
 *     {@code TIMEOUT}, …) or the JSON-RPC error code as text; {@code null} for a success
 * @param rpcStatusCode {@code rpc.response.status_code}: the JSON-RPC error code as text, or
 *     {@code null}
 * @param networkTransport {@code network.transport}: {@code pipe} (stdio), {@code tcp} (HTTP), or
 *     {@code null} in memory
 * @param protocolVersion {@code mcp.protocol.version}, when known
 */
public record McpOperation(String method, String toolName, String promptName, String errorType,
    String rpcStatusCode, String networkTransport, String protocolVersion) {}
