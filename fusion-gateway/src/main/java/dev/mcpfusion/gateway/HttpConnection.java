package dev.mcpfusion.gateway;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.McpHeaders;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An upstream reached over MCP's Streamable HTTP transport: every message is a POST to one
 * endpoint; a response comes back as JSON or as a server-sent event stream that the server closes
 * after it. The session id the upstream gives at {@code initialize} goes with every later request;
 * a {@code 404} for it means the upstream forgot the session, and the client opens a new one.
 */
final class HttpConnection implements Connection {
  private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);

  private final String upstream;
  private final URI endpoint;
  private final Map<String, String> headers;
  private final HttpClient client;
  private final AtomicLong ids = new AtomicLong();
  private volatile String sessionId;
  private volatile String protocolVersion;
  private volatile boolean closed;

  HttpConnection(String upstream, URI endpoint, Map<String, String> headers, Duration connectTimeout) {
    this.upstream = upstream;
    this.endpoint = endpoint;
    this.headers = Map.copyOf(headers);
    this.client = HttpClient.newBuilder()
        .connectTimeout(connectTimeout)
        .version(HttpClient.Version.HTTP_1_1)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** The protocol version agreed at {@code initialize}, sent as a header on every later request. */
  void protocolVersion(String version) {
    this.protocolVersion = version;
  }

  @Override
  public Map<String, Object> request(String method, Map<String, Object> params,
      Map<String, String> extra, Duration timeout) {
    long id = ids.incrementAndGet();
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.put("params", params);
    HttpResponse<String> response = post(message, extra, timeout, method);
    String session = response.headers().firstValue(McpHeaders.SESSION_ID).orElse(null);
    if (session != null && JsonRpc.INITIALIZE.equals(method)) {
      sessionId = session;
    }
    int status = response.statusCode();
    if (status == 404 && sessionId != null && !JsonRpc.INITIALIZE.equals(method)) {
      closed = true;
      throw new UpstreamFailure(UpstreamFailure.Kind.SESSION_LOST, "The upstream " + upstream
          + " ended the gateway's session.", null);
    }
    if (status / 100 != 2) {
      LOG.warn("upstream {}: {} answered HTTP {}", upstream, method, status);
      throw UpstreamFailure.unavailable("The upstream " + upstream + " answered HTTP " + status
          + (status == 401 || status == 403 ? ": it refused the gateway's credentials." : "."));
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    Map<String, Object> answer = type.startsWith("text/event-stream")
        ? fromEvents(response.body(), id) : asMessage(response.body());
    if (answer == null || !Long.valueOf(id).equals(asLong(answer.get("id")))) {
      throw UpstreamFailure.unavailable("The upstream " + upstream
          + " sent no answer to the gateway's request.");
    }
    return answer;
  }

  @Override
  public void notify(String method, Map<String, Object> params) {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("method", method);
    if (params != null) {
      message.put("params", params);
    }
    try {
      post(message, Map.of(), Duration.ofSeconds(5), method);
    } catch (UpstreamFailure e) {
      LOG.debug("upstream {}: notification {} not delivered", upstream, method, e);
    }
  }

  private HttpResponse<String> post(Map<String, Object> message, Map<String, String> extra,
      Duration timeout, String method) {
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(Json.write(message)));
    headers.forEach(request::header);
    extra.forEach(request::header);
    if (sessionId != null) {
      request.header(McpHeaders.SESSION_ID, sessionId);
    }
    if (protocolVersion != null) {
      request.header(McpHeaders.PROTOCOL_VERSION, protocolVersion);
    }
    CompletableFuture<HttpResponse<String>> sent =
        client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    try {
      // The request's own timeout ends at the headers; this bounds the body (an event stream) too.
      return sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      sent.cancel(true);
      throw new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, "The upstream " + upstream
          + " did not answer within " + Durations.words(timeout) + ".", null);
    } catch (InterruptedException e) {
      sent.cancel(true);
      Thread.currentThread().interrupt();
      throw new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, "The call to the upstream " + upstream
          + " was stopped before it answered.", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof java.net.http.HttpTimeoutException) {
        throw new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, "The upstream " + upstream
            + " did not answer within " + Durations.words(timeout) + ".", cause);
      }
      LOG.warn("upstream {}: {} could not be sent", upstream, method, cause);
      throw UpstreamFailure.unavailable("The upstream " + upstream
          + " could not be reached.", cause instanceof IOException ? cause : e);
    }
  }

  /** The message with id {@code id} among the events of a closed stream, or {@code null}. */
  private Map<String, Object> fromEvents(String body, long id) {
    StringBuilder data = new StringBuilder();
    for (String line : (body + "\n\n").split("\r?\n", -1)) {
      if (line.isEmpty()) {
        if (data.length() > 0) {
          Map<String, Object> message = asMessage(data.toString());
          data.setLength(0);
          if (message != null && message.get("method") == null
              && Long.valueOf(id).equals(asLong(message.get("id")))) {
            return message;
          }
        }
      } else if (line.startsWith("data:")) {
        if (data.length() > 0) {
          data.append('\n');
        }
        data.append(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> asMessage(String json) {
    try {
      return Json.parse(json) instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    } catch (IllegalArgumentException e) {
      LOG.debug("upstream {}: an answer that is not JSON", upstream);
      return null;
    }
  }

  private static Long asLong(Object id) {
    return id instanceof Number n ? n.longValue() : null;
  }

  @Override
  public boolean alive() {
    return !closed;
  }

  @Override
  public void close() {
    closed = true;
    String session = sessionId;
    if (session == null) {
      return;
    }
    // Ends the session upstream (a courtesy: the upstream also evicts it when idle).
    HttpRequest.Builder delete = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(2))
        .header(McpHeaders.SESSION_ID, session).DELETE();
    headers.forEach(delete::header);
    client.sendAsync(delete.build(), HttpResponse.BodyHandlers.discarding());
  }
}
