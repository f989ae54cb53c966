package dev.mcpfusion.core.sdk;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Sink;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A minimal in-process transport pair for SDK round trips in core's own tests: the client's
 * messages are written to JSON bytes and handed to the server's {@link Edge} (as a real transport
 * does), and what the edge writes is parsed back for the client. A second mode serves a raw SDK
 * server (no edge) for tests of the SDK's own behaviour. The production pair lives in
 * fusion-testing.
 */
final class InProcessTransport {
  private final McpJsonMapper mapper;
  private final Edge edge;
  private final Inbound inbound;
  private final EdgeSession edgeSession;
  private final Sinks.Many<McpSchema.JSONRPCMessage> toClient =
      Sinks.many().unicast().onBackpressureBuffer();
  /** The raw JSON text of every message the server side sent. */
  final List<String> serverWire = new CopyOnWriteArrayList<>();
  private volatile McpServerSession session;

  /** A pair in front of {@code fusion}'s edge; {@code headers} reach every request's context. */
  InProcessTransport(FusionServer fusion, Map<String, ?> headers) {
    this.mapper = dev.mcpfusion.core.server.McpJson.newMapper();
    this.edge = fusion.edge();
    this.inbound = Inbound.of("in-process", headers);
    Sink out = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        deliverToClient(new String(json, StandardCharsets.UTF_8));
      }

      @Override
      public void push(byte[] json) {
        deliverToClient(new String(json, StandardCharsets.UTF_8));
      }
    };
    this.edgeSession = edge.openSession(out);
  }

  /** A pair without a framework edge, for raw SDK servers ({@link #serverProvider()}). */
  InProcessTransport(McpJsonMapper mapper) {
    this.mapper = mapper;
    this.edge = null;
    this.inbound = null;
    this.edgeSession = null;
  }

  McpServerTransportProvider serverProvider() {
    return new Provider();
  }

  McpClientTransport clientTransport() {
    return new Client();
  }

  private String write(McpSchema.JSONRPCMessage message) {
    try {
      return mapper.writeValueAsString(message);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private synchronized void deliverToClient(String json) {
    serverWire.add(json);
    try {
      toClient.emitNext(McpSchema.deserializeJsonRpcMessage(mapper, json),
          Sinks.EmitFailureHandler.FAIL_FAST);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final class Provider implements McpServerTransportProvider {
    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
      session = factory.create(new ServerSide());
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
      return session == null ? Mono.empty() : session.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return session == null ? Mono.empty() : session.closeGracefully();
    }
  }

  private final class ServerSide implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> deliverToClient(write(message)));
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

  private final class Client implements McpClientTransport {
    @Override
    public Mono<Void> connect(
        Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
      toClient.asFlux()
          .concatMap(message -> Mono.just(message).transform(handler))
          .subscribe();
      return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> {
        String json = write(message);
        if (edge != null) {
          edge.dispatch(edge.read(json.getBytes(StandardCharsets.UTF_8)), inbound, edgeSession,
              edgeSession.out());
          return;
        }
        try {
          session.handle(McpSchema.deserializeJsonRpcMessage(mapper, json)).subscribe();
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
      return Mono.fromRunnable(() -> toClient.tryEmitComplete());
    }
  }
}
