package dev.mcpfusion.core.trace;

/**
 * The attribute names of a request span ({@code tools/call}, {@code prompts/get},
 * {@code resources/read}, {@code completion/complete}), in three dialects: our own
 * {@code mcpfusion.*}, OpenInference ({@code openinference.span.kind}, {@code tool.name},
 * {@code input.value}, {@code output.value}) and the OpenTelemetry GenAI and MCP semantic
 * conventions ({@code gen_ai.*}, {@code mcp.*}, {@code jsonrpc.request.id}, {@code error.type}),
 * so a backend that knows any one of them finds every request.
 */
public final class SpanAttributes {
  private SpanAttributes() {}

  /** The router name. */
  public static final String MCPFUSION_ROUTER = "mcpfusion.router";
  /** The action name, once resolved. */
  public static final String MCPFUSION_ACTION = "mcpfusion.action";
  /** {@code flat} or {@code grouped}. */
  public static final String MCPFUSION_EXPOSITION = "mcpfusion.exposition";
  /**
   * The tool, prompt or resource a call serves, on the {@code CLIENT} span of a request the server
   * sends its client during that call (whose name is its method alone).
   */
  public static final String MCPFUSION_TARGET = "mcpfusion.target";
  /** Wall time of the whole pipeline in milliseconds (a double). */
  public static final String MCPFUSION_DURATION_MS = "mcpfusion.duration_ms";
  /**
   * Bytes of the JSON-RPC response as the edge wrote it (envelope included); set where a response
   * is written, so a call made in memory ({@code Edge.call}) has none.
   */
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

  /**
   * OTel: the code of a failed request ({@code UNKNOWN_TOOL}, {@code VALIDATION_ERROR},
   * {@code SERVER_BUSY}, a user code, ...), taken from the answer's code, never its text; the
   * JSON-RPC error code as text when the framework has no code of its own for the failure.
   */
  public static final String ERROR_TYPE = "error.type";
  /** OTel RPC/MCP: the JSON-RPC error code of a request answered with a JSON-RPC error, as text. */
  public static final String RPC_RESPONSE_STATUS_CODE = "rpc.response.status_code";
  /** OTel JSON-RPC: the request's id as text (absent for a call made in memory). */
  public static final String JSONRPC_REQUEST_ID = "jsonrpc.request.id";

  /** OpenInference span kind: {@code TOOL}, {@code PROMPT}, {@code RETRIEVER} or {@code CHAIN}. */
  public static final String OPENINFERENCE_SPAN_KIND = "openinference.span.kind";
  /** The OpenInference span kind of a tool call. */
  public static final String OPENINFERENCE_KIND_TOOL = "TOOL";
  /** The OpenInference span kind of {@code prompts/get}: the rendering of a prompt template. */
  public static final String OPENINFERENCE_KIND_PROMPT = "PROMPT";
  /** The OpenInference span kind of {@code resources/read}: a data retrieval step. */
  public static final String OPENINFERENCE_KIND_RETRIEVER = "RETRIEVER";
  /** The OpenInference span kind of {@code completion/complete}, which no narrower kind fits. */
  public static final String OPENINFERENCE_KIND_CHAIN = "CHAIN";
  /** OpenInference: the tool name. */
  public static final String TOOL_NAME = "tool.name";
  /**
   * OpenInference, opt-in ({@link TraceOptions#recordInput()}): what the client sent — the
   * arguments of a tool call or prompt, the URI read, the argument completed — as it arrived
   * (unredacted: it is the client's own input).
   */
  public static final String INPUT_VALUE = "input.value";
  /** OpenInference: the type of {@link #INPUT_VALUE} ({@code application/json} or {@code text/plain}). */
  public static final String INPUT_MIME_TYPE = "input.mime_type";
  /**
   * OpenInference, opt-in ({@link TraceOptions#recordOutput()}): the JSON-RPC {@code result} as the
   * edge wrote it — after the presenter and redaction, never the handler's raw return; absent for
   * a JSON-RPC error.
   */
  public static final String OUTPUT_VALUE = "output.value";
  /** OpenInference: the type of {@link #OUTPUT_VALUE}, always {@code application/json}. */
  public static final String OUTPUT_MIME_TYPE = "output.mime_type";

  /** OTel GenAI: the operation; always {@link #GEN_AI_OPERATION_EXECUTE_TOOL}. */
  public static final String GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
  /** The GenAI operation of a tool call. */
  public static final String GEN_AI_OPERATION_EXECUTE_TOOL = "execute_tool";
  /** OTel GenAI: the tool name. */
  public static final String GEN_AI_TOOL_NAME = "gen_ai.tool.name";
  /** OTel GenAI: the id of a tool call, which is its JSON-RPC request id. */
  public static final String GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
  /** OTel GenAI/MCP: the prompt of {@code prompts/get}, or of a prompt argument's completion. */
  public static final String GEN_AI_PROMPT_NAME = "gen_ai.prompt.name";

  /** OTel MCP: the JSON-RPC method ({@code tools/call}, {@code prompts/get}, …). */
  public static final String MCP_METHOD_NAME = "mcp.method.name";
  /**
   * OTel MCP: the URI of {@code resources/read} as requested (the span name carries the declared
   * URI or template instead), or the URI template of a resource variable's completion.
   */
  public static final String MCP_RESOURCE_URI = "mcp.resource.uri";
  /** OTel MCP: the session id, when the transport has sessions. */
  public static final String MCP_SESSION_ID = "mcp.session.id";
  /**
   * The caller's subject (OpenTelemetry {@code user.id}), recorded only on the
   * {@link TraceOptions#recordCaller()} opt-in.
   */
  public static final String USER_ID = "user.id";
  /** OTel MCP: the negotiated protocol version, when known. */
  public static final String MCP_PROTOCOL_VERSION = "mcp.protocol.version";

  /**
   * OTel: the transport the request came over, {@link #TRANSPORT_PIPE} (stdio) or
   * {@link #TRANSPORT_TCP} (HTTP); absent for a call made in memory.
   */
  public static final String NETWORK_TRANSPORT = "network.transport";
  /** The {@code network.transport} of stdio. */
  public static final String TRANSPORT_PIPE = "pipe";
  /** The {@code network.transport} of HTTP. */
  public static final String TRANSPORT_TCP = "tcp";

  /** The method of a tool span. */
  public static final String TOOLS_CALL = "tools/call";

  /** The span name of a call of {@code toolName}: {@code tools/call {tool}}. */
  public static String spanName(String toolName) {
    return TOOLS_CALL + " " + toolName;
  }
}
