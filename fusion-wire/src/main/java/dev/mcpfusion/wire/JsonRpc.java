package dev.mcpfusion.wire;

/**
 * JSON-RPC error codes, the MCP-specific ones the framework sends, and the MCP method names the
 * edge routes.
 */
public final class JsonRpc {
  private JsonRpc() {}

  /** The text is not JSON. */
  public static final int PARSE_ERROR = -32700;
  /** Not an acceptable request. */
  public static final int INVALID_REQUEST = -32600;
  /** No such method. */
  public static final int METHOD_NOT_FOUND = -32601;
  /** The params are wrong. */
  public static final int INVALID_PARAMS = -32602;
  /** The server failed. */
  public static final int INTERNAL_ERROR = -32603;
  /** Used by MCP servers for "session not found" (no JSON-RPC standard code exists). */
  public static final int SESSION_NOT_FOUND = -32001;
  /**
   * MCP: the resource does not exist (2025 era; the 2026-07-28 era answers {@link #INVALID_PARAMS}
   * with the URI in {@code data.uri}, SEP-2164).
   */
  public static final int RESOURCE_NOT_FOUND = -32002;
  /**
   * {@code SERVER_BUSY} of a prompt, resource or completion: the concurrency gate turned the
   * request away. Our own code in the range MCP leaves to implementations (-32000 to -32019; the
   * specification defines codes only from -32020 on): a busy server is neither the client's
   * mistake (-32602) nor a failure (-32603), and a client may retry after {@code data.retryAfterSeconds}.
   */
  public static final int SERVER_BUSY = -32003;
  /**
   * {@code TIMEOUT} of a prompt, resource or completion: its deadline passed and the handler was
   * stopped. In the implementation-defined range, as {@link #SERVER_BUSY}.
   */
  public static final int REQUEST_TIMEOUT = -32004;
  /** 2026-07-28 over HTTP: an MCP header ({@code Mcp-Method}, {@code Mcp-Name}, the version) disagrees with the body. */
  public static final int HEADER_MISMATCH = -32020;
  /** 2026-07-28: the request needs a capability the client did not declare. */
  public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
  /** 2026-07-28: the request names a protocol version the server does not speak. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  public static final String INITIALIZE = "initialize";
  public static final String INITIALIZED = "notifications/initialized";
  public static final String PING = "ping";
  public static final String DISCOVER = "server/discover";
  public static final String TOOLS_LIST = "tools/list";
  public static final String TOOLS_CALL = "tools/call";
  public static final String PROMPTS_LIST = "prompts/list";
  public static final String PROMPTS_GET = "prompts/get";
  public static final String RESOURCES_LIST = "resources/list";
  public static final String RESOURCE_TEMPLATES_LIST = "resources/templates/list";
  public static final String RESOURCES_READ = "resources/read";
  public static final String RESOURCES_SUBSCRIBE = "resources/subscribe";
  public static final String RESOURCES_UNSUBSCRIBE = "resources/unsubscribe";
  public static final String COMPLETE = "completion/complete";
  public static final String LOGGING_SET_LEVEL = "logging/setLevel";
  public static final String CANCELLED = "notifications/cancelled";
  public static final String PROGRESS = "notifications/progress";
  public static final String MESSAGE = "notifications/message";
  public static final String RESOURCE_UPDATED = "notifications/resources/updated";
  public static final String TOOLS_LIST_CHANGED = "notifications/tools/list_changed";
  /** 2026-07-28: opens a long-lived stream of the notifications the client opts in to. */
  public static final String SUBSCRIPTIONS_LISTEN = "subscriptions/listen";
  /** 2026-07-28: the first message of a listen stream, naming what the server agreed to send. */
  public static final String SUBSCRIPTIONS_ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
  public static final String SAMPLING_CREATE_MESSAGE = "sampling/createMessage";
  public static final String ELICITATION_CREATE = "elicitation/create";
  /** The tasks extension: a task's state (and its result, once it has one). */
  public static final String TASKS_GET = "tasks/get";
  /** The tasks extension: the client's answers to a task's questions. */
  public static final String TASKS_UPDATE = "tasks/update";
  /** The tasks extension: the client no longer wants a task. */
  public static final String TASKS_CANCEL = "tasks/cancel";
  /** Server to client: the client's roots (the directories or URIs it lets the server see). */
  public static final String ROOTS_LIST = "roots/list";
}
