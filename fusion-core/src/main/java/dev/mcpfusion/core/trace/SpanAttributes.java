package dev.mcpfusion.core.trace;

/**
 * The attribute names of a tool span, in three dialects: our own {@code mcpfusion.*},
 * OpenInference ({@code openinference.span.kind}, {@code tool.name}) and the OpenTelemetry GenAI
 * and MCP semantic conventions ({@code gen_ai.*}, {@code mcp.*}, {@code error.type}), so a backend
 * that knows any one of them finds every tool call.
 */
public final class SpanAttributes {
  private SpanAttributes() {}

  /** The router name. */
  public static final String MCPFUSION_ROUTER = "mcpfusion.router";
  /** The action name, once resolved. */
  public static final String MCPFUSION_ACTION = "mcpfusion.action";
  /** {@code flat} or {@code grouped}. */
  public static final String MCPFUSION_EXPOSITION = "mcpfusion.exposition";
  /** Wall time of the whole pipeline in milliseconds (a double). */
  public static final String MCPFUSION_DURATION_MS = "mcpfusion.duration_ms";
  /** UTF-8 bytes of what the agent receives: text blocks, {@code structuredContent} and {@code _meta} as JSON. */
  public static final String MCPFUSION_RESPONSE_SIZE = "mcpfusion.response_size";
  /** The agent-facing message of a failure the agent can recover from (OTel ignores descriptions on UNSET). */
  public static final String MCPFUSION_ERROR_MESSAGE = "mcpfusion.error.message";
  /** The incident id of an {@code INTERNAL_ERROR}, as in the server log line. */
  public static final String MCPFUSION_INCIDENT = "mcpfusion.incident";
  /**
   * How many values and pieces of text redaction masked in the reply (a long), set on every call of
   * an action with redaction. Only our dialect has it: neither OpenInference nor the OTel GenAI/MCP
   * conventions define a redaction attribute.
   */
  public static final String MCPFUSION_REDACTIONS = "mcpfusion.redactions";
  /** Opt-in ({@link TraceOptions#recordResultData()}): the stripped {@code structuredContent}. */
  public static final String MCPFUSION_RESULT = "mcpfusion.result";

  /** OTel: the error code of a failed call ({@code UNKNOWN_TOOL}, {@code VALIDATION_ERROR}, a user code, ...). */
  public static final String ERROR_TYPE = "error.type";

  /** OpenInference span kind; always {@link #OPENINFERENCE_KIND_TOOL}. */
  public static final String OPENINFERENCE_SPAN_KIND = "openinference.span.kind";
  /** The OpenInference span kind of a tool call. */
  public static final String OPENINFERENCE_KIND_TOOL = "TOOL";
  /** OpenInference: the tool name. */
  public static final String TOOL_NAME = "tool.name";

  /** OTel GenAI: the operation; always {@link #GEN_AI_OPERATION_EXECUTE_TOOL}. */
  public static final String GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
  /** The GenAI operation of a tool call. */
  public static final String GEN_AI_OPERATION_EXECUTE_TOOL = "execute_tool";
  /** OTel GenAI: the tool name. */
  public static final String GEN_AI_TOOL_NAME = "gen_ai.tool.name";

  /** OTel MCP: the JSON-RPC method; always {@code tools/call}. */
  public static final String MCP_METHOD_NAME = "mcp.method.name";
  /** OTel MCP: the session id, when the transport has sessions. */
  public static final String MCP_SESSION_ID = "mcp.session.id";
  /** OTel MCP: the negotiated protocol version, when known. */
  public static final String MCP_PROTOCOL_VERSION = "mcp.protocol.version";

  /** The method every tool span is for. */
  public static final String TOOLS_CALL = "tools/call";

  /** The span name of a call of {@code toolName}: {@code tools/call {tool}}. */
  public static String spanName(String toolName) {
    return TOOLS_CALL + " " + toolName;
  }
}
