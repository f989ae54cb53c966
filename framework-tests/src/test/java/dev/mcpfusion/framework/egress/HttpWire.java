package dev.mcpfusion.framework.egress;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.wire.McpHeaders;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The vault on fusion-http at 127.0.0.1, through {@link java.net.http.HttpClient}. Classic era: a
 * Streamable HTTP session — initialize, then the session's GET event stream held open (where
 * {@code notifications/resources/updated} arrives), every POST accepting an event-stream answer
 * (where a call's progress, logs and requests to the client arrive before its reply), and each
 * server request answered by POSTing the response. 2026-07-28 era: stateless POSTs, no session.
 *
 * <p>Every byte of every response is recorded: the status line and headers, a JSON body whole, an
 * event stream event by event.
 */
final class HttpWire extends StreamWire {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final String SESSION_HEADER = "Mcp-Session-Id";
  private static final String VERSION_HEADER = "MCP-Protocol-Version";

  private final FusionHttpServer http;
  private final URI endpoint;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "vault-http-client");
    t.setDaemon(true);
    return t;
  });
  private final HttpClient client;
  private volatile String sessionId;
  private volatile String protocolVersion;
  private volatile InputStream events;
  private volatile boolean closing;

  HttpWire(boolean modern) {
    super(modern ? "stateless HTTP " + ProtocolVersions.MODERN
        : "Streamable HTTP " + ProtocolVersions.LATEST_CLASSIC, modern);
    FusionServer server = VaultServer.builder().build();
    http = FusionHttp.serve(server, HttpOptions.port(0)
        .stopOnShutdownSignal(false)
        .shutdownGrace(Duration.ofSeconds(2)));
    endpoint = http.endpoint();
    client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(CONNECT_TIMEOUT)
        .executor(pool)
        .build();
    if (modern) {
      protocolVersion = ProtocolVersions.MODERN;
      return;
    }
    try {
      initialize();
      openEventStream();
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  @Override
  void initialized(String negotiated) {
    protocolVersion = negotiated;
  }

  @Override
  void send(String json) {
    HttpRequest.Builder post = HttpRequest.newBuilder(endpoint)
        .timeout(REPLY_TIMEOUT)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    headers(post);
    if (sessionId == null && ProtocolVersions.MODERN.equals(protocolVersion)) {
      standardHeaders(post, json);
    }
    // Async on the pool, never inline: when the response's headers are already in by the time
    // the stage is attached, a plain whenComplete runs on this thread, which would then read the
    // whole event stream itself — and a server request on it would wait for an answer this
    // thread can no longer send.
    client.sendAsync(post.build(), HttpResponse.BodyHandlers.ofInputStream())
        .whenCompleteAsync((response, failure) -> {
          if (failure != null) {
            failed("POST failed: " + failure);
          } else {
            read(response, "POST");
          }
        }, pool);
  }

  private void headers(HttpRequest.Builder request) {
    String session = sessionId;
    if (session != null) {
      request.header(SESSION_HEADER, session);
    }
    String version = protocolVersion;
    if (version != null) {
      request.header(VERSION_HEADER, version);
    }
  }

  /**
   * The 2026-07-28 standard headers a client derives from the body: {@code Mcp-Method}, and
   * {@code Mcp-Name} on the methods that address one tool, prompt or resource.
   */
  private static void standardHeaders(HttpRequest.Builder request, String json) {
    Map<String, Object> message = Json.object(json);
    String method = (String) message.get("method");
    if (method == null) {
      return;
    }
    request.header(McpHeaders.METHOD, method);
    String member = McpHeaders.nameMember(method);
    if (member != null && message.get("params") instanceof Map<?, ?> params
        && params.get(member) instanceof String name) {
      request.header(McpHeaders.NAME, name);
    }
  }

  /** Opens the session's GET event stream and reads it on a thread of its own until closed. */
  private void openEventStream() {
    HttpRequest.Builder get = HttpRequest.newBuilder(endpoint)
        .timeout(REPLY_TIMEOUT)
        .header("Accept", "text/event-stream")
        .GET();
    headers(get);
    HttpResponse<InputStream> response;
    try {
      // Returns with the headers, which the server flushes at once.
      response = client.send(get.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new AssertionError(name() + ": the GET event stream did not open: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(name() + ": interrupted opening the GET event stream", e);
    }
    received(new Received("GET " + response.statusCode() + " headers", head(response), null));
    if (response.statusCode() != 200) {
      throw new AssertionError(name() + ": the GET event stream answered " + response.statusCode());
    }
    events = response.body();
    Thread reader = new Thread(() -> {
      try {
        readEvents(events, "GET event");
        if (!closing) {
          failed("the server ended the GET event stream");
        }
      } catch (IOException e) {
        if (!closing) {
          failed("the GET event stream broke: " + e);
        }
      }
    }, "vault-http-events");
    reader.setDaemon(true);
    reader.start();
  }

  private void read(HttpResponse<InputStream> response, String via) {
    if (sessionId == null) {
      response.headers().firstValue(SESSION_HEADER).ifPresent(id -> sessionId = id);
    }
    received(new Received(via + " " + response.statusCode() + " headers", head(response), null));
    String type = response.headers().firstValue("Content-Type").orElse("");
    try (InputStream body = response.body()) {
      if (type.startsWith("text/event-stream")) {
        readEvents(body, via + " event");
      } else {
        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        if (!text.isEmpty()) {
          received(new Received(via + " body", text, text));
        }
      }
    } catch (IOException e) {
      if (!closing) {
        failed(via + " response broke: " + e);
      }
    }
  }

  private static String head(HttpResponse<?> response) {
    StringBuilder out = new StringBuilder("HTTP " + response.statusCode());
    response.headers().map().forEach((name, values) ->
        values.forEach(v -> out.append('\n').append(name).append(": ").append(v)));
    return out.toString();
  }

  /** Reads server-sent events until the stream ends: each event whole, its data as the message. */
  private void readEvents(InputStream stream, String via) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    StringBuilder raw = new StringBuilder();
    StringBuilder data = new StringBuilder();
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.isEmpty()) {
        if (raw.length() > 0) {
          received(new Received(via, raw.toString(), data.length() == 0 ? null : data.toString()));
        }
        raw.setLength(0);
        data.setLength(0);
        continue;
      }
      raw.append(raw.length() == 0 ? "" : "\n").append(line);
      if (line.startsWith("data:")) {
        data.append(data.length() == 0 ? "" : "\n")
            .append(line.substring(line.startsWith("data: ") ? 6 : 5));
      }
    }
    if (raw.length() > 0) {
      received(new Received(via, raw.toString(), data.length() == 0 ? null : data.toString()));
    }
  }

  @Override
  public void close() {
    closing = true;
    try {
      if (sessionId != null) {
        HttpRequest.Builder delete = HttpRequest.newBuilder(endpoint).timeout(CONNECT_TIMEOUT)
            .DELETE();
        headers(delete);
        client.send(delete.build(), HttpResponse.BodyHandlers.discarding());
      }
    } catch (IOException e) {
      // The server is closed next anyway; the session goes with it.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      InputStream stream = events;
      if (stream != null) {
        try {
          stream.close();
        } catch (IOException e) {
          // Closing a stream the server already ended.
        }
      }
      http.close();
      pool.shutdownNow();
    }
  }
}
