package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.transport.StdioTransport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.json.JsonMapper;

/**
 * ONE stdio stream (one {@link StdioTransport}, one input, one output) with a real client of each
 * era on it: the SDK's classic {@code McpSyncClient} (initialize + session) and its modern
 * {@code McpSyncClient} (2026-07-28, no handshake). Both write lines into the same server input; a
 * splitter hands each server line to the client whose request id it answers (every other line, e.g.
 * a notification, to the classic client, the only one with a session).
 */
final class SharedStdio implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  final FusionServer server;
  /** Every line the server wrote, in order. */
  final List<String> serverLines = new CopyOnWriteArrayList<>();
  /** Every line a client wrote, in order. */
  final List<String> clientLines = new CopyOnWriteArrayList<>();

  private final Pipe toServer = new Pipe();
  private final Pipe fromServer = new Pipe();
  private final Pipe toModern = new Pipe();
  private final Set<String> modernIds = ConcurrentHashMap.newKeySet();
  private final Sinks.Many<String> toClassic = Sinks.many().unicast().onBackpressureBuffer();
  private final Thread serving;
  private final Thread splitter;
  private McpSyncClient classic;
  private StdioMcpClientTransport modernTransport;
  private io.modelcontextprotocol.modern.client.McpSyncClient modern;

  SharedStdio(FusionServer server) {
    this.server = server;
    serving = PipedStdio.serve(server, toServer, fromServer,
        "shared-stdio-server");
    splitter = new Thread(this::split, "shared-stdio-splitter");
    splitter.setDaemon(true);
    splitter.start();
  }

  /** Writes one whole line to the server input (both clients share it). */
  synchronized void send(String line) {
    clientLines.add(line);
    try {
      toServer.out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String idKey(Object id) {
    return id instanceof Number n ? "n:" + n.longValue() : "s:" + id;
  }

  private void split() {
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(fromServer.in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        serverLines.add(line);
        Object id = JSON.readValue(line, Map.class).get("id");
        if (id != null && modernIds.contains(idKey(id))) {
          toModern.out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        } else {
          toClassic.tryEmitNext(line);
        }
      }
    } catch (IOException e) {
      // the stream ended
    } finally {
      toModern.out.close();
      toClassic.tryEmitComplete();
    }
  }

  /** The classic client, initialized (a 2025-era session). */
  McpSyncClient classic() {
    if (classic == null) {
      classic = McpClient.sync(new ClassicLineTransport(dev.mcpfusion.core.server.McpJson.newMapper()))
          .requestTimeout(Duration.ofSeconds(20))
          .build();
      classic.initialize();
    }
    return classic;
  }

  /** The modern client: nothing is sent until its first request (no handshake exists). */
  io.modelcontextprotocol.modern.client.McpSyncClient modern() {
    if (modern == null) {
      modernTransport = StdioMcpClientTransport.builder(toModern.in, new ModernOut()).start();
      modern = io.modelcontextprotocol.modern.client.McpClient.sync(modernTransport)
          .callTimeout(Duration.ofSeconds(20))
          .build();
    }
    return modern;
  }

  @Override
  public void close() throws Exception {
    if (classic != null) {
      classic.closeGracefully();
    }
    if (modernTransport != null) {
      modernTransport.close();
    }
    toServer.out.close();
    serving.join(10_000);
    splitter.join(10_000);
  }

  /** The modern client's output: each whole line is recorded (its id) and forwarded. */
  private final class ModernOut extends OutputStream {
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (!text.isBlank()) {
          Object id = JSON.readValue(text, Map.class).get("id");
          if (id != null) {
            modernIds.add(idKey(id));
          }
          send(text);
        }
      } else {
        line.write(b);
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      for (int i = off; i < off + len; i++) {
        write(b[i]);
      }
    }
  }

  /** The classic SDK client's transport over the shared stream: one JSON-RPC message per line. */
  private final class ClassicLineTransport implements McpClientTransport {
    private final McpJsonMapper mapper;

    ClassicLineTransport(McpJsonMapper mapper) {
      this.mapper = mapper;
    }

    @Override
    public Mono<Void> connect(
        Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
      toClassic.asFlux()
          .concatMap(line -> {
            try {
              return Mono.just(McpSchema.deserializeJsonRpcMessage(mapper, line)).transform(handler);
            } catch (IOException e) {
              return Mono.error(e);
            }
          })
          .subscribe();
      return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> {
        try {
          send(mapper.writeValueAsString(message));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }
  }
}
