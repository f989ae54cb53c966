package dev.mcpfusion.gateway;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An upstream started as a child process that speaks MCP's stdio transport: one JSON-RPC message
 * per line on its stdin and stdout; its stderr is the gateway's. A reader thread matches responses
 * to requests by id; when the process exits, every waiting request fails at once.
 */
final class StdioConnection implements Connection {
  private static final Logger LOG = LoggerFactory.getLogger(StdioConnection.class);

  private final String upstream;
  private final Process process;
  private final OutputStream stdin;
  private final Map<Long, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private volatile boolean closed;

  private StdioConnection(String upstream, Process process) {
    this.upstream = upstream;
    this.process = process;
    this.stdin = process.getOutputStream();
    Thread reader = new Thread(this::read, "fusion-gateway-" + upstream + "-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code command} in {@code directory} (the gateway's own when {@code null}).
   *
   * @throws UpstreamFailure when the command cannot be started
   */
  static StdioConnection start(String upstream, List<String> command, Path directory,
      Map<String, String> environment) {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    builder.environment().putAll(environment);
    try {
      return new StdioConnection(upstream, builder.start());
    } catch (IOException | RuntimeException e) {
      LOG.warn("upstream {}: cannot start {}", upstream, command, e);
      throw UpstreamFailure.unavailable("The upstream " + upstream + " could not be started.", e);
    }
  }

  /** How many requests wait for their response (tests). */
  int waiting() {
    return pending.size();
  }

  /** The child process (tests end it to see how a dead upstream is answered). */
  Process process() {
    return process;
  }

  @Override
  public Map<String, Object> request(String method, Map<String, Object> params,
      Map<String, String> headers, Duration timeout) {
    long id = ids.incrementAndGet();
    CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
    pending.put(id, answer);
    if (closed) {
      pending.remove(id);
      throw exited();
    }
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.put("params", params);
    try {
      write(message);
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.remove(id);
      notify(JsonRpc.CANCELLED, Map.of("requestId", id, "reason", "The gateway stopped waiting."));
      throw new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, "The upstream " + upstream
          + " did not answer within " + Durations.words(timeout) + ".", null);
    } catch (InterruptedException e) {
      pending.remove(id);
      Thread.currentThread().interrupt();
      throw new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, "The call to the upstream " + upstream
          + " was stopped before it answered.", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof UpstreamFailure failure ? failure
          : UpstreamFailure.unavailable("The upstream " + upstream + " failed.", e.getCause());
    } catch (IOException e) {
      pending.remove(id);
      throw exited();
    }
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
      write(message);
    } catch (IOException e) {
      LOG.debug("upstream {}: notification {} not sent", upstream, method, e);
    }
  }

  private void write(Map<String, Object> message) throws IOException {
    // Json.write escapes every control character: the line holds exactly one message.
    byte[] line = (Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (stdin) {
      stdin.write(line);
      stdin.flush();
    }
  }

  @Override
  public boolean alive() {
    return !closed && process.isAlive();
  }

  @Override
  public void close() {
    closed = true;
    try {
      stdin.close();
    } catch (IOException e) {
      LOG.debug("upstream {}: stdin already closed", upstream, e);
    }
    process.destroy();
    try {
      if (!process.waitFor(2, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    failPending();
  }

  private void read() {
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (!line.isBlank()) {
          receive(line);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("upstream {}: stdout closed", upstream, e);
    } finally {
      closed = true;
      failPending();
    }
  }

  private void receive(String line) {
    Object parsed;
    try {
      parsed = Json.parse(line);
    } catch (IllegalArgumentException e) {
      // A server must write only MCP messages to stdout; a stray log line is skipped, not fatal.
      LOG.debug("upstream {}: a line on stdout that is not JSON was skipped", upstream);
      return;
    }
    if (!(parsed instanceof Map<?, ?> raw)) {
      return;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> message = (Map<String, Object>) raw;
    Object id = message.get("id");
    Object method = message.get("method");
    if (method instanceof String name && id != null) {
      answerServerRequest(id, name);
    } else if (method == null && id instanceof Number number) {
      CompletableFuture<Map<String, Object>> waiting = pending.remove(number.longValue());
      if (waiting != null) {
        waiting.complete(message);
      }
    }
    // Notifications (progress, logs, list changes) are not forwarded: the gateway's tools are fixed.
  }

  /** The gateway declares no client capability: it answers ping and refuses the rest. */
  private void answerServerRequest(Object id, String method) {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    if (JsonRpc.PING.equals(method)) {
      message.put("result", Map.of());
    } else {
      message.put("error", Map.of("code", JsonRpc.METHOD_NOT_FOUND,
          "message", "The gateway does not forward " + method + " to its client."));
    }
    try {
      write(message);
    } catch (IOException e) {
      LOG.debug("upstream {}: answer to {} not sent", upstream, method, e);
    }
  }

  private void failPending() {
    for (Long id : pending.keySet()) {
      CompletableFuture<Map<String, Object>> waiting = pending.remove(id);
      if (waiting != null) {
        waiting.completeExceptionally(exited());
      }
    }
  }

  private UpstreamFailure exited() {
    return UpstreamFailure.unavailable("The upstream " + upstream
        + " stopped: its process exited before answering.");
  }
}
