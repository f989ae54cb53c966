package dev.mcpfusion.core.sdk;

import dev.mcpfusion.core.FusionServer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A minimal in-process transport pair for SDK round trips in core's own tests: every message is
 * written to JSON text and parsed back with the server's mapper (as a real transport would), and
 * the server edge ({@link FusionServer#intercept}) runs before the SDK session sees a message.
 * The production pair lives in fusion-testing.
 */
final class InProcessTransport {
  private final Function<McpSchema.JSONRPCMessage, Optional<McpSchema.JSONRPCResponse>> edge;
  private final McpJsonMapper mapper;
  private final Map<String, Object> transportContext;
  private final Sinks.Many<McpSchema.JSONRPCMessage> toClient =
      Sinks.many().unicast().onBackpressureBuffer();
  /** The raw JSON text of every message the server side sent. */
  final List<String> serverWire = new CopyOnWriteArrayList<>();
  private volatile McpServerSession session;

  InProcessTransport(FusionServer fusion, Map<String, Object> transportContext) {
    this(fusion.jsonMapper(), fusion::intercept, transportContext);
  }

  /** A pair without a framework edge, for raw SDK servers. */
  InProcessTransport(McpJsonMapper mapper,
      Function<McpSchema.JSONRPCMessage, Optional<McpSchema.JSONRPCResponse>> edge,
      Map<String, Object> transportContext) {
    this.mapper = mapper;
    this.edge = edge;
    this.transportContext = transportContext;
  }

  McpServerTransportProvider serverProvider() {
    return new Provider();
  }

  McpClientTransport clientTransport() {
    return new Client();
  }

  private McpSchema.JSONRPCMessage roundTrip(McpSchema.JSONRPCMessage message, List<String> wire) {
    try {
      String json = mapper.writeValueAsString(message);
      if (wire != null) {
        wire.add(json);
      }
      return McpSchema.deserializeJsonRpcMessage(mapper, json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private synchronized void deliverToClient(McpSchema.JSONRPCMessage message) {
    toClient.emitNext(roundTrip(message, serverWire), Sinks.EmitFailureHandler.FAIL_FAST);
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
      return Mono.fromRunnable(() -> deliverToClient(message));
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
        McpSchema.JSONRPCMessage received = roundTrip(message, null);
        Optional<McpSchema.JSONRPCResponse> answered = edge.apply(received);
        if (answered.isPresent()) {
          deliverToClient(answered.get());
          return;
        }
        UnaryOperator<reactor.util.context.Context> context = ctx -> ctx.put(
            McpTransportContext.KEY, McpTransportContext.create(transportContext));
        session.handle(received).contextWrite(context).subscribe();
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
