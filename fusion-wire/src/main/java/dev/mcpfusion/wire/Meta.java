package dev.mcpfusion.wire;

/**
 * The {@code _meta} keys the framework writes for programs (the same facts the text blocks give a
 * model), and the keys of the 2026-07-28 protocol it reads and writes.
 */
public final class Meta {
  private Meta() {}

  /** {@code {cause, domains[]}}: a successful mutation marked these domains stale. */
  public static final String INVALIDATION = "mcpfusion/invalidation";
  /** {@code [rule, …]}: the domain rules of the presented view. */
  public static final String RULES = "mcpfusion/rules";
  /** {@code [{action, reason, arguments?}, …]}: the suggested next actions. */
  public static final String SUGGESTIONS = "mcpfusion/suggestions";
  /** {@code {shown, hidden | more, next?, withheld?, maxBytes?}}: what a collection left out. */
  public static final String TRUNCATION = "mcpfusion/truncation";
  /** {@code {code, severity, recovery, actions[], details{}, retryAfterSeconds}} of an error. */
  public static final String ERROR = "mcpfusion/error";

  /** 2026-07-28: the protocol version every request carries in {@code params._meta}. */
  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  /**
   * 2026-07-28: on every notification of a {@code subscriptions/listen} stream, the id of the
   * request that opened it.
   */
  public static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
  /** 2026-07-28: the client's capabilities, in {@code params._meta}. */
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  /** 2026-07-28: the least severe log level the client wants, in {@code params._meta}. */
  public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  /** 2026-07-28: the server's name and version, in every result's {@code _meta}. */
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
  /** The client's token for progress notifications, in {@code params._meta}. */
  public static final String PROGRESS_TOKEN = "progressToken";
  /** The tasks extension's name, under {@code extensions} in capabilities on both sides. */
  public static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
}
