package dev.mcpfusion.http;

import static dev.mcpfusion.http.ErrorBodies.INTERNAL_ERROR;
import static dev.mcpfusion.http.ErrorBodies.INVALID_PARAMS;
import static dev.mcpfusion.http.ErrorBodies.INVALID_REQUEST;
import static dev.mcpfusion.http.ErrorBodies.PARSE_ERROR;
import static dev.mcpfusion.http.ErrorBodies.SESSION_NOT_FOUND;
import static dev.mcpfusion.http.ErrorBodies.error;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.modern.ModernEra;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Streamable HTTP endpoint (MCP 2025-03-26 … 2025-11-25, with sessions) of one
 * {@link FusionServer}: the framework's HTTP edge in front of the SDK's session logic.
 *
 * <p>Before any byte reaches the SDK: Host and Origin are checked (403), the auth hook runs (401),
 * an unsupported {@code MCP-Protocol-Version} is refused (400), the body is capped (413), parsed by
 * us (400 with -32700 / -32600, {@code "id": null} without a usable id) and passed through
 * {@link FusionServer#intercept}. Every body this class writes is a JSON-RPC message it built; the
 * SDK's own error responses are filtered so no exception text leaves the process.
 *
 * <p>The same endpoint serves the stateless 2026-07-28 protocol: a POST whose JSON-RPC request
 * {@link ModernEra#isModernRequest} recognises, or that carries {@code MCP-Protocol-Version:
 * 2026-07-28}, is answered by the modern server without a session (no initialize, no
 * {@code Mcp-Session-Id}); everything else goes to the classic sessions.
 *
 * <p>Must be registered with {@code asyncSupported = true} (the GET event stream is asynchronous).
 */
final class McpHttpServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(McpHttpServlet.class);
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");
  private static final String SESSION_HEADER = "Mcp-Session-Id";
  private static final String VERSION_HEADER = "MCP-Protocol-Version";
  /** The 2026-07-28 code for MCP headers that disagree with the body. */
  private static final int HEADER_MISMATCH = -32020;
  /** The most body bytes read and discarded to deliver a clean 413 instead of a connection reset. */
  private static final long MAX_DISCARD = 64L * 1024 * 1024;

  private final transient FusionServer server;
  private final transient HttpOptions options;
  private final transient McpJsonMapper mapper;
  private final transient StreamableTransport transport;
  private final transient McpSyncServer mcp;
  private final transient ModernEra modern;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private volatile boolean draining;

  McpHttpServlet(FusionServer server, HttpOptions options) {
    this.server = server;
    this.options = options;
    this.mapper = server.jsonMapper();
    this.transport = new StreamableTransport(mapper, options.sessionIdleTimeout());
    this.mcp = server.connect(transport);
    this.modern = ModernEra.of(server);
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    inFlight.incrementAndGet();
    try {
      serve(req, resp);
    } catch (IOException e) {
      // The client went away mid-exchange: nothing to answer.
      log.debug("I/O failure while serving {} {}", req.getMethod(), req.getRequestURI(), e);
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      log.error("HTTP edge failed (incident {})", incident, e);
      if (!resp.isCommitted()) {
        resp.reset();
        send(resp, 500, error(null, INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
      }
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void serve(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (draining) {
      send(resp, 503, error(null, INTERNAL_ERROR, "The server is shutting down; try again later."));
      return;
    }
    if (!hostAllowed(req)) {
      send(resp, 403, error(null, INVALID_REQUEST, "Forbidden: this Host is not allowed."));
      return;
    }
    String origin = req.getHeader("Origin");
    if (origin != null) {
      if (!originAllowed(origin, req)) {
        send(resp, 403, error(null, INVALID_REQUEST, "Forbidden: this Origin is not allowed."));
        return;
      }
      resp.setHeader("Access-Control-Allow-Origin", origin);
      resp.setHeader("Vary", "Origin");
      resp.setHeader("Access-Control-Expose-Headers", SESSION_HEADER + ", " + VERSION_HEADER);
    }
    if ("OPTIONS".equals(req.getMethod())) {
      // CORS preflight: carries no credentials, so it is answered before the auth hook.
      resp.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
      resp.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
      resp.setHeader("Access-Control-Allow-Headers",
          "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
      resp.setHeader("Access-Control-Max-Age", "600");
      resp.setStatus(204);
      return;
    }
    Map<String, String> headers = headers(req);
    HttpAuthenticator auth = options.auth();
    if (auth != null && !authenticated(auth, headers)) {
      resp.setHeader("WWW-Authenticate", "Bearer");
      send(resp, 401, error(null, INVALID_REQUEST, "Unauthorized: missing or invalid credentials."));
      return;
    }
    String version = req.getHeader(VERSION_HEADER);
    if (version != null && !StreamableTransport.PROTOCOL_VERSIONS.contains(version.trim())
        && !ModernEra.PROTOCOL_VERSION.equals(version.trim())) {
      send(resp, 400, error(null, INVALID_REQUEST, "Unsupported MCP-Protocol-Version header; this "
          + "endpoint supports " + String.join(", ", StreamableTransport.PROTOCOL_VERSIONS) + ", "
          + ModernEra.PROTOCOL_VERSION + "."));
      return;
    }
    switch (req.getMethod()) {
      case "POST" -> post(req, resp, headers);
      case "GET" -> get(req, resp);
      case "DELETE" -> delete(req, resp);
      default -> {
        resp.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
        send(resp, 405, error(null, INVALID_REQUEST, "Method not allowed: use POST, GET or DELETE."));
      }
    }
  }

  private void post(HttpServletRequest req, HttpServletResponse resp, Map<String, String> headers)
      throws IOException {
    if (!"application/json".equals(mediaType(req.getContentType()))) {
      send(resp, 415, error(null, INVALID_REQUEST, "Unsupported Media Type: send Content-Type: application/json."));
      return;
    }
    String accept = req.getHeader("Accept");
    if (accept != null && !accepts(accept, "application/json")) {
      send(resp, 406, error(null, INVALID_REQUEST, "Not Acceptable: the Accept header must allow application/json."));
      return;
    }
    byte[] body = readCapped(req, resp);
    if (body == null) {
      return;
    }
    Object tree;
    try {
      tree = mapper.readValue(body, Object.class);
    } catch (IOException | RuntimeException e) {
      send(resp, 400, error(null, PARSE_ERROR, "Parse error: the body is not valid JSON."));
      return;
    }
    if (tree instanceof List<?>) {
      send(resp, 400, error(null, INVALID_REQUEST,
          "Invalid Request: batches are not supported; send one JSON-RPC message per request."));
      return;
    }
    if (!(tree instanceof Map<?, ?> object)) {
      send(resp, 400, error(null, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC object."));
      return;
    }
    Object id = ErrorBodies.usableId(object.get("id"));
    if (object.containsKey("id") && id == null) {
      send(resp, 400, error(null, INVALID_REQUEST, "Invalid Request: id must be a string or a number."));
      return;
    }
    String version = req.getHeader(VERSION_HEADER);
    if (ModernEra.isModernRequest(object)
        || version != null && ModernEra.PROTOCOL_VERSION.equals(version.trim())) {
      modern(req, resp, headers, object, id, body);
      return;
    }
    McpSchema.JSONRPCMessage message = null;
    if (McpSchema.JSONRPC_VERSION.equals(object.get("jsonrpc"))) {
      try {
        message = McpSchema.deserializeJsonRpcMessage(mapper, new String(body, StandardCharsets.UTF_8));
      } catch (IOException | RuntimeException e) {
        message = null;
      }
    }
    if (message == null) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Invalid Request: not a JSON-RPC 2.0 request, notification or response."));
      return;
    }
    if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
      initialize(request, headers, resp);
      return;
    }
    String sessionId = req.getHeader(SESSION_HEADER);
    if (sessionId == null || sessionId.isBlank()) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Bad Request: missing Mcp-Session-Id header; send initialize first."));
      return;
    }
    StreamableTransport.Session session = transport.find(sessionId.trim());
    if (session == null) {
      send(resp, 404, error(id, SESSION_NOT_FOUND, "Session not found: send initialize to start a new session."));
      return;
    }
    Optional<McpSchema.JSONRPCResponse> answered = server.intercept(message, headers);
    if (answered.isPresent()) {
      send(resp, 200, answered.get());
      return;
    }
    McpTransportContext context = context(headers, session);
    if (message instanceof McpSchema.JSONRPCRequest request) {
      if (!session.initialized() && !McpSchema.METHOD_PING.equals(request.method())) {
        send(resp, 400, error(request.id(), INVALID_REQUEST,
            "Invalid Request: send notifications/initialized before other requests."));
        return;
      }
      if (!session.initialized()) {
        send(resp, 200, McpSchema.JSONRPCResponse.result(request.id(), Map.of()));
        return;
      }
      McpSchema.JSONRPCResponse response = call(session, request, context);
      if (response != null) {
        send(resp, 200, response);
      } else {
        send(resp, 400, error(request.id(), INVALID_REQUEST,
            "Invalid Request: a request with this id is already in progress in this session."));
      }
      return;
    }
    try {
      session.mcp.handle(message)
          .contextWrite(c -> c.put(McpTransportContext.KEY, context))
          .block(options.requestTimeout());
    } catch (RuntimeException e) {
      log.warn("Session {} failed to handle a notification or response", session.id(), e);
    }
    if (message instanceof McpSchema.JSONRPCNotification n
        && McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(n.method())) {
      session.markInitialized();
    }
    resp.setStatus(202);
    resp.setContentLength(0);
  }

  /**
   * A 2026-07-28 message: stateless, no session. A request is answered by the modern server
   * (after our edge) as {@code application/json}, with the HTTP status the SDK's modern transport
   * gives each JSON-RPC error code; a notification gets 202 (stateless HTTP cancels by closing the
   * connection). {@code Mcp-Method}, {@code Mcp-Name} and {@code MCP-Protocol-Version}, when sent,
   * must agree with the body (400 / -32020 otherwise).
   */
  private void modern(HttpServletRequest req, HttpServletResponse resp, Map<String, String> headers,
      Map<?, ?> object, Object id, byte[] body) throws IOException {
    if (!McpSchema.JSONRPC_VERSION.equals(object.get("jsonrpc"))
        || object.containsKey("method") && !(object.get("method") instanceof String)) {
      send(resp, 400, error(id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request or notification."));
      return;
    }
    if (!(object.get("method") instanceof String method)) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Invalid Request: the server accepts requests or notifications only."));
      return;
    }
    if (id == null) {
      resp.setStatus(202);
      resp.setContentLength(0);
      return;
    }
    String mismatch = headerMismatch(req, object, method);
    if (mismatch != null) {
      send(resp, 400, error(id, HEADER_MISMATCH, mismatch));
      return;
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put(FusionServer.TRANSPORT_HEADERS, headers);
    values.put(FusionServer.TRANSPORT_PROTOCOL_VERSION, ModernEra.PROTOCOL_VERSION);
    List<Object> messages;
    try {
      // Parsed once, above; the tool runs on this request thread (no hand-off to another pool).
      messages = modern.handleOnCaller(ModernEra.request(object), McpTransportContext.create(values))
          .collectList()
          .block(options.requestTimeout());
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      log.error("Modern request {} ({}) failed (incident {})", id, method, incident, e);
      send(resp, 500, error(id, INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
      return;
    }
    if (messages == null || messages.isEmpty()) {
      send(resp, 500, error(id, INTERNAL_ERROR, "Internal error."));
      return;
    }
    // Tools never stream; the last message is the response (earlier ones would be notifications).
    Object response = messages.get(messages.size() - 1);
    Integer code = errorCode(response);
    int status = 200;
    if (code != null) {
      status = switch (code.intValue()) {
        case PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, HEADER_MISMATCH, -32021, -32022 -> 400;
        case ErrorBodies.METHOD_NOT_FOUND -> 404;
        default -> 200;
      };
      if (code.intValue() == INTERNAL_ERROR) {
        // Never the SDK's text: it may carry exception details.
        response = error(id, INTERNAL_ERROR, "Internal error");
      }
    }
    send(resp, status, response);
  }

  /** The JSON-RPC error code of a response the modern era or the edge answered; {@code null} for a result. */
  private Integer errorCode(Object response) {
    if (response instanceof JsonRpc.JSONRPCResponse modernResponse) {
      return modernResponse.error() == null ? null : modernResponse.error().code();
    }
    if (response instanceof McpSchema.JSONRPCResponse classic) {
      return classic.error() == null ? null : classic.error().code();
    }
    Map<?, ?> tree = mapper.convertValue(response, Map.class);
    return tree.get("error") instanceof Map<?, ?> error && error.get("code") instanceof Number n
        ? n.intValue() : null;
  }

  /** Why the MCP headers disagree with the body, or {@code null} when they agree (or are absent). */
  private static String headerMismatch(HttpServletRequest req, Map<?, ?> object, String method) {
    String methodHeader = req.getHeader("Mcp-Method");
    if (methodHeader != null && !methodHeader.trim().equals(method)) {
      return "Mcp-Method header does not match the request method.";
    }
    Object params = object.get("params");
    Object metaVersion = params instanceof Map<?, ?> p && p.get("_meta") instanceof Map<?, ?> m
        ? m.get(ModernEra.META_PROTOCOL_VERSION) : null;
    String version = req.getHeader(VERSION_HEADER);
    if (version != null && metaVersion != null && !version.trim().equals(metaVersion)) {
      return "MCP-Protocol-Version header does not match the protocol version in _meta.";
    }
    String nameHeader = req.getHeader("Mcp-Name");
    if (nameHeader != null && params instanceof Map<?, ?> p
        && (McpSchema.METHOD_TOOLS_CALL.equals(method) || "prompts/get".equals(method))
        && p.get("name") instanceof String name && !nameHeader.trim().equals(name)) {
      return "Mcp-Name header does not match the request name.";
    }
    return null;
  }

  private void initialize(McpSchema.JSONRPCRequest request, Map<String, String> headers,
      HttpServletResponse resp) throws IOException {
    Optional<McpSchema.JSONRPCResponse> answered = server.intercept(request, headers);
    if (answered.isPresent()) {
      send(resp, 200, answered.get());
      return;
    }
    StreamableTransport.Session session = transport.newSession();
    McpSchema.JSONRPCResponse response = call(session, request, context(headers, session));
    if (response == null || response.error() != null) {
      session.mcp.closeGracefully().subscribe();
      send(resp, 200, response);
      return;
    }
    Object version = mapper.convertValue(response.result(), Map.class).get("protocolVersion");
    session.protocolVersion(version instanceof String v ? v : null);
    transport.register(session);
    resp.setHeader(SESSION_HEADER, session.id());
    send(resp, 200, response);
  }

  /** Hands a request to the SDK session and waits for its answer; {@code null} if its id is already waiting. */
  private McpSchema.JSONRPCResponse call(StreamableTransport.Session session,
      McpSchema.JSONRPCRequest request, McpTransportContext context) {
    CompletableFuture<McpSchema.JSONRPCResponse> answer = session.expect(request.id());
    if (answer == null) {
      return null;
    }
    session.openRequests.incrementAndGet();
    try {
      return await(session, request, context, answer);
    } finally {
      session.openRequests.decrementAndGet();
      session.touch();
    }
  }

  private McpSchema.JSONRPCResponse await(StreamableTransport.Session session,
      McpSchema.JSONRPCRequest request, McpTransportContext context,
      CompletableFuture<McpSchema.JSONRPCResponse> answer) {
    session.mcp.handle(request)
        .contextWrite(c -> c.put(McpTransportContext.KEY, context))
        .subscribe(null, e -> answer.completeExceptionally(e));
    try {
      McpSchema.JSONRPCResponse response =
          answer.get(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
      return ErrorBodies.clean(response, dataJson(response));
    } catch (TimeoutException e) {
      session.forget(request.id());
      log.warn("Session {}: request {} ({}) did not complete within {}", session.id(), request.id(),
          request.method(), options.requestTimeout());
      return McpSchema.JSONRPCResponse.error(request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(
          INTERNAL_ERROR, "The request did not complete in time.", null));
    } catch (ExecutionException | RuntimeException e) {
      session.forget(request.id());
      String incident = ErrorReplies.newIncidentId();
      log.error("Session {}: request {} ({}) failed (incident {})", session.id(), request.id(),
          request.method(), incident, e);
      return McpSchema.JSONRPCResponse.error(request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(
          INTERNAL_ERROR, "Internal error (incident " + incident + ").", null));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      session.forget(request.id());
      return McpSchema.JSONRPCResponse.error(request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(
          INTERNAL_ERROR, "The server is shutting down.", null));
    }
  }

  private String dataJson(McpSchema.JSONRPCResponse response) {
    if (response.error() == null || response.error().data() == null) {
      return null;
    }
    try {
      return mapper.writeValueAsString(response.error().data());
    } catch (IOException | RuntimeException e) {
      // Unserializable data is dropped by clean(): treat it as leaking.
      return "Exception";
    }
  }

  private void get(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String accept = req.getHeader("Accept");
    if (accept == null || !accepts(accept, "text/event-stream")) {
      send(resp, 406, error(null, INVALID_REQUEST, "Not Acceptable: the event stream needs Accept: text/event-stream."));
      return;
    }
    StreamableTransport.Session session = session(req, resp);
    if (session == null) {
      return;
    }
    AsyncContext async = req.startAsync();
    async.setTimeout(0);
    resp.setStatus(200);
    resp.setContentType("text/event-stream");
    resp.setCharacterEncoding("UTF-8");
    resp.setHeader("Cache-Control", "no-cache");
    resp.setHeader(SESSION_HEADER, session.id());
    // The measured SDK transport never sent these headers; a client waits for them, so flush now.
    resp.flushBuffer();
    session.openStream(async, resp.getOutputStream());
  }

  private void delete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    StreamableTransport.Session session = session(req, resp);
    if (session == null) {
      return;
    }
    transport.remove(session);
    resp.setStatus(204);
  }

  private StreamableTransport.Session session(HttpServletRequest req, HttpServletResponse resp)
      throws IOException {
    String sessionId = req.getHeader(SESSION_HEADER);
    if (sessionId == null || sessionId.isBlank()) {
      send(resp, 400, error(null, INVALID_REQUEST, "Bad Request: missing Mcp-Session-Id header."));
      return null;
    }
    StreamableTransport.Session session = transport.find(sessionId.trim());
    if (session == null) {
      send(resp, 404, error(null, SESSION_NOT_FOUND, "Session not found: send initialize to start a new session."));
    }
    return session;
  }

  /** The body, or {@code null} after answering 413 when it is larger than the cap. */
  private byte[] readCapped(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    long max = options.maxBodyBytes();
    long declared = req.getContentLengthLong();
    InputStream in = req.getInputStream();
    if (declared <= max) {
      byte[] body = in.readNBytes((int) Math.min(max + 1, Integer.MAX_VALUE - 8));
      if (body.length <= max) {
        return body;
      }
    }
    // Read the rest (bounded) so the client receives the 413 rather than a reset connection.
    if (declared <= MAX_DISCARD) {
      discard(in, MAX_DISCARD);
    } else {
      resp.setHeader("Connection", "close");
    }
    send(resp, 413, error(null, INVALID_REQUEST,
        "Payload Too Large: the body must not exceed " + max + " bytes."));
    return null;
  }

  private static void discard(InputStream in, long limit) {
    byte[] buffer = new byte[64 * 1024];
    long total = 0;
    try {
      int n;
      while (total < limit && (n = in.read(buffer)) > 0) {
        total += n;
      }
    } catch (IOException e) {
      log.trace("Client stopped sending an oversized body", e);
    }
  }

  private McpTransportContext context(Map<String, String> headers, StreamableTransport.Session session) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put(FusionServer.TRANSPORT_HEADERS, headers);
    String version = headers.get("mcp-protocol-version");
    if (version == null) {
      version = session.protocolVersion();
    }
    if (version != null) {
      values.put(FusionServer.TRANSPORT_PROTOCOL_VERSION, version);
    }
    return McpTransportContext.create(values);
  }

  private boolean authenticated(HttpAuthenticator auth, Map<String, String> headers) {
    try {
      return auth.authenticate(headers);
    } catch (RuntimeException e) {
      log.warn("The auth hook failed; rejecting the request", e);
      return false;
    }
  }

  private boolean hostAllowed(HttpServletRequest req) {
    String host = req.getHeader("Host");
    if (host == null || host.isBlank()) {
      return false;
    }
    List<String> allowed = options.allowedHosts();
    if (allowed.contains("*")) {
      return true;
    }
    host = host.trim().toLowerCase(Locale.ROOT);
    String name;
    String portText;
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      if (end < 0) {
        return false;
      }
      name = host.substring(0, end + 1);
      portText = host.substring(end + 1);
    } else {
      int colon = host.lastIndexOf(':');
      name = colon < 0 ? host : host.substring(0, colon);
      portText = colon < 0 ? "" : host.substring(colon);
    }
    int port;
    if (portText.isEmpty()) {
      port = req.isSecure() ? 443 : 80;
    } else if (portText.matches(":\\d{1,5}")) {
      port = Integer.parseInt(portText.substring(1));
    } else {
      return false;
    }
    if (LOOPBACK.contains(name) && port == req.getLocalPort()) {
      return true;
    }
    return allowed.contains(name) || allowed.contains(name + ":" + port);
  }

  private boolean originAllowed(String origin, HttpServletRequest req) {
    String o = origin.trim().toLowerCase(Locale.ROOT);
    if (o.endsWith("/")) {
      o = o.substring(0, o.length() - 1);
    }
    List<String> allowed = options.allowedOrigins();
    if (allowed.contains("*") || allowed.contains(o)) {
      return true;
    }
    int port = req.getLocalPort();
    for (String name : LOOPBACK) {
      if (o.equals("http://" + name + ":" + port) || port == 80 && o.equals("http://" + name)) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, String> headers(HttpServletRequest req) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String name : Collections.list(req.getHeaderNames())) {
      headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", Collections.list(req.getHeaders(name))));
    }
    return headers;
  }

  private static String mediaType(String contentType) {
    if (contentType == null) {
      return null;
    }
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
  }

  private static boolean accepts(String accept, String type) {
    String family = type.substring(0, type.indexOf('/')) + "/*";
    for (String part : accept.split(",")) {
      String media = mediaType(part);
      if (media.equals(type) || media.equals(family) || media.equals("*/*")) {
        return true;
      }
    }
    return false;
  }

  private void send(HttpServletResponse resp, int status, Object body) throws IOException {
    byte[] bytes = transport.json(body);
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setContentLength(bytes.length);
    resp.getOutputStream().write(bytes);
  }

  /**
   * Stops taking requests (new ones get 503), ends the event streams, lets requests in progress
   * finish within {@code grace}, then closes the SDK server and its sessions. Idempotent.
   */
  void shutdown(Duration grace) {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    draining = true;
    transport.closeStreams();
    long deadline = System.nanoTime() + grace.toNanos();
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (inFlight.get() > 0) {
      log.warn("{} request(s) still in progress after the {} shutdown grace", inFlight.get(), grace);
    }
    try {
      mcp.closeGracefully();
    } catch (RuntimeException e) {
      log.warn("Closing the MCP server failed", e);
    }
  }

  /** The sessions' transport (server-initiated messages go through it). */
  StreamableTransport transport() {
    return transport;
  }

  /** Requests being served now (event streams excluded once they are open). */
  int inFlight() {
    return inFlight.get();
  }

  @Override
  public void destroy() {
    shutdown(options.shutdownGrace());
  }
}
