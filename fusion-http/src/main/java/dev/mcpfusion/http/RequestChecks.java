package dev.mcpfusion.http;

import static dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR;
import static dev.mcpfusion.wire.JsonRpc.INVALID_REQUEST;
import static dev.mcpfusion.wire.JsonRpc.SESSION_NOT_FOUND;
import static dev.mcpfusion.http.HttpFraming.SESSION_HEADER;
import static dev.mcpfusion.http.HttpFraming.error;
import static dev.mcpfusion.http.HttpFraming.send;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.wire.ProtocolVersions;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks every request of the endpoint passes, whatever its method: Host and Origin (DNS
 * rebinding), the auth hook, the {@code MCP-Protocol-Version} header, and the session a request
 * names.
 */
final class RequestChecks {
  private static final Authentication LOCAL = Authentication.accepted(Caller.local());
  private static final Logger log = LoggerFactory.getLogger(RequestChecks.class);
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");
  /** The retry hint when the session store did not answer: it is usually back within a second. */
  static final int STORE_RETRY_AFTER_SECONDS = 1;

  private final HttpOptions options;
  private final HttpSessions sessions;

  RequestChecks(HttpOptions options, HttpSessions sessions) {
    this.options = options;
    this.sessions = sessions;
  }

  /**
   * Whether the {@code MCP-Protocol-Version} header (may be {@code null}) names a version this
   * endpoint speaks in neither era.
   */
  static boolean unsupportedVersion(String header) {
    return header != null && !ProtocolVersions.STREAMABLE_HTTP.contains(header.trim())
        && !ProtocolVersions.MODERN.equals(header.trim());
  }

  /** The 400 body of a request whose {@code MCP-Protocol-Version} header this endpoint does not speak. */
  static byte[] unsupportedVersionBody(Object id) {
    return error(id, INVALID_REQUEST, "Unsupported MCP-Protocol-Version header; this "
        + "endpoint supports " + String.join(", ", ProtocolVersions.STREAMABLE_HTTP) + ", "
        + ProtocolVersions.MODERN + ".");
  }

  /**
   * The live session the request's {@code Mcp-Session-Id} names, or {@code null} after answering
   * 400 (no id), 404 (no such session, or one another caller opened) or 503 with
   * {@code Retry-After} (the session store did not answer, or holds the session but this
   * instance is at its session cap).
   *
   * @param id the request's JSON-RPC id for the error body ({@code null} when there is none)
   * @param missing the 400 message when the header is missing
   */
  HttpSessions.Session session(HttpServletRequest req, HttpServletResponse resp, Object id,
      String missing) throws IOException {
    String sessionId = req.getHeader(SESSION_HEADER);
    if (sessionId == null || sessionId.isBlank()) {
      send(resp, 400, error(id, INVALID_REQUEST, missing));
      return null;
    }
    HttpSessions.Session session;
    try {
      session = sessions.find(sessionId.trim());
    } catch (HttpSessions.StoreUnavailable e) {
      log.warn("The session store could not load session {}", sessionId.trim(), e.getCause());
      storeUnavailable(resp, id);
      return null;
    } catch (HttpSessions.AtCapacity e) {
      resp.setHeader("Retry-After", String.valueOf(McpHttpServlet.SESSIONS_RETRY_AFTER_SECONDS));
      send(resp, 503, error(id, INTERNAL_ERROR, "Service Unavailable: this server holds the most "
          + "sessions it allows (" + e.maxSessions + ") and cannot take this one on; retry after "
          + McpHttpServlet.SESSIONS_RETRY_AFTER_SECONDS + " seconds."));
      return null;
    }
    // Another caller's session answers as a missing one: its existence is not theirs to learn.
    if (session == null || !session.belongsTo(Challenges.caller(req))) {
      send(resp, 404, error(id, SESSION_NOT_FOUND, "Session not found: send initialize to start a new session."));
      return null;
    }
    return session;
  }

  /**
   * Answers {@code 503} with {@code Retry-After}: the session store did not answer (in time), so
   * the session cannot be served now; a retry may find it back.
   */
  static void storeUnavailable(HttpServletResponse resp, Object id) throws IOException {
    resp.setHeader("Retry-After", String.valueOf(STORE_RETRY_AFTER_SECONDS));
    send(resp, 503, error(id, INTERNAL_ERROR, "Service Unavailable: the session store did not "
        + "answer, so this server cannot serve the session now; retry after "
        + STORE_RETRY_AFTER_SECONDS + " second."));
  }

  /**
   * What the auth hook says about the request: without a hook, the local caller; a hook that
   * throws, or answers nothing, rejects it.
   */
  Authentication authentication(Map<String, String> headers) {
    HttpAuthenticator auth = options.auth();
    if (auth == null) {
      return LOCAL;
    }
    try {
      Authentication verdict = auth.verify(headers);
      return verdict == null ? Authentication.missing() : verdict;
    } catch (RuntimeException e) {
      // Its class only: an exception's text may repeat the credential it choked on.
      log.warn("The auth hook failed ({}); rejecting the request", e.getClass().getName());
      return Authentication.missing();
    }
  }

  /**
   * Whether the {@code Host} header names this server: a configured host, or a loopback name on
   * the port the request arrived on.
   */
  boolean hostAllowed(HttpServletRequest req) {
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
    } else {
      port = port(portText);
      if (port < 0) {
        return false;
      }
    }
    if (LOOPBACK.contains(name) && port == req.getLocalPort()) {
      return true;
    }
    return allowed.contains(name) || allowed.contains(name + ":" + port);
  }

  /** The port of a Host header's {@code :port} part (one to five ASCII digits), or -1. */
  static int port(String colonAndPort) {
    int digits = colonAndPort.length() - 1;
    if (digits < 1 || digits > 5 || colonAndPort.charAt(0) != ':') {
      return -1;
    }
    int port = 0;
    for (int i = 1; i <= digits; i++) {
      char c = colonAndPort.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      port = port * 10 + (c - '0');
    }
    return port;
  }

  /** Whether a browser page from {@code origin} may call: a configured origin, or loopback on this port. */
  boolean originAllowed(String origin, HttpServletRequest req) {
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

  /** The request headers, flattened by the edge's one rule ({@link Inbound#addHeader}). */
  static Map<String, String> headers(HttpServletRequest req) {
    Map<String, String> headers = new LinkedHashMap<>(32);
    Enumeration<String> names = req.getHeaderNames();
    while (names.hasMoreElements()) {
      String name = names.nextElement();
      Enumeration<String> values = req.getHeaders(name);
      while (values.hasMoreElements()) {
        Inbound.addHeader(headers, name, values.nextElement());
      }
    }
    return headers;
  }

  /**
   * Reads and drops the request's body, at most {@code limit} bytes; whether it ended within them
   * (a failed read counts as not: the connection is then not worth keeping).
   */
  static boolean drain(HttpServletRequest req, long limit) {
    byte[] buffer = new byte[8192];
    long read = 0;
    try (java.io.InputStream in = req.getInputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        read += n;
        if (read > limit) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
