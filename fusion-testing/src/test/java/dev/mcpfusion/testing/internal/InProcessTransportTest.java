package dev.mcpfusion.testing.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The pair drives the real SDK client and server; no FusionServer involved. */
class InProcessTransportTest {
  private final McpJsonMapper mapper = new JacksonMcpJsonMapper(JsonMapper.builder().build());
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final Set<String> handlerThreads = ConcurrentHashMap.newKeySet();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  private McpSyncClient start(Function<JSONRPCMessage, Optional<JSONRPCResponse>> edge,
      InProcessTransport[] pairOut, CountDownLatch gate) {
    InProcessTransport pair = new InProcessTransport(mapper, edge);
    pairOut[0] = pair;
    McpSchema.Tool echo = McpSchema.Tool.builder()
        .name("echo")
        .inputSchema(Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"))))
        .build();
    McpSyncServer server = McpServer.sync(pair.serverSide())
        .serverInfo("pair-test", "1")
        .jsonMapper(mapper)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .toolCall(echo, (exchange, request) -> {
          handlerThreads.add(Thread.currentThread().getName());
          if (gate != null) {
            gate.countDown();
            try {
              gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return CallToolResult.builder()
              .addTextContent("echo:" + request.arguments().get("text"))
              .build();
        })
        .build();
    McpSyncClient client = McpClient.sync(pair.clientSide())
        .requestTimeout(Duration.ofSeconds(10))
        .build();
    toClose.add(pair);
    toClose.add(server::close);
    toClose.add(client::close);
    client.initialize();
    return client;
  }

  private static CallToolRequest echo(String text) {
    return new CallToolRequest("echo", Map.of("text", text));
  }

  @Test
  void aToolCallCrossesThePairAsJsonText() {
    InProcessTransport[] pair = new InProcessTransport[1];
    McpSyncClient client = start(m -> Optional.empty(), pair, null);

    CallToolResult result = client.callTool(echo("hello"));

    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("echo:hello");
    assertThat(pair[0].clientToServer()).anySatisfy(text -> assertThat(text)
        .contains("\"method\":\"tools/call\"").contains("\"text\":\"hello\""));
    assertThat(pair[0].serverToClient()).anySatisfy(text -> assertThat(text)
        .startsWith("{").contains("\"echo:hello\""));
    // the initialize reply is recorded too: every server message, in order
    assertThat(pair[0].serverToClient().get(0)).contains("\"protocolVersion\"");
  }

  @Test
  void concurrentCallsFromSeveralThreadsAreAllAnsweredAndRunConcurrently() throws Exception {
    int calls = 8;
    // every handler waits until all of them have started: passes only if they run at the same time
    CountDownLatch allStarted = new CountDownLatch(calls);
    InProcessTransport[] pair = new InProcessTransport[1];
    McpSyncClient client = start(m -> Optional.empty(), pair, allStarted);
    ExecutorService pool = Executors.newFixedThreadPool(calls);
    try {
      List<Future<CallToolResult>> futures = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        String text = "call-" + i;
        futures.add(pool.submit(() -> client.callTool(echo(text))));
      }
      for (int i = 0; i < calls; i++) {
        CallToolResult r = futures.get(i).get(20, TimeUnit.SECONDS);
        assertThat(((McpSchema.TextContent) r.content().get(0)).text()).isEqualTo("echo:call-" + i);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(handlerThreads).hasSizeGreaterThan(1);
    long replies = pair[0].serverToClient().stream().filter(t -> t.contains("echo:call-")).count();
    assertThat(replies).isEqualTo(calls);
  }

  @Test
  void theEdgeAnswersBeforeTheSessionAndTheReplyIsCaptured() {
    AtomicInteger edgeCalls = new AtomicInteger();
    Function<JSONRPCMessage, Optional<JSONRPCResponse>> edge = message -> {
      edgeCalls.incrementAndGet();
      if (message instanceof JSONRPCRequest r && r.method().equals("tools/call")
          && r.params() instanceof Map<?, ?> params && "nope".equals(params.get("name"))) {
        return Optional.of(JSONRPCResponse.error(r.id(), new JSONRPCResponse.JSONRPCError(-32602,
            "no such tool", Map.of("code", "UNKNOWN_TOOL"))));
      }
      return Optional.empty();
    };
    InProcessTransport[] pair = new InProcessTransport[1];
    McpSyncClient client = start(edge, pair, null);

    assertThatThrownBy(() -> client.callTool(new CallToolRequest("nope", Map.of())))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("no such tool");
    assertThat(edgeCalls.get()).isGreaterThanOrEqualTo(3); // initialize, initialized, tools/call
    assertThat(handlerThreads).isEmpty(); // the session never ran a handler
    List<String> sent = pair[0].serverToClient();
    assertThat(sent.get(sent.size() - 1)).contains("\"code\":-32602").contains("\"UNKNOWN_TOOL\"");
  }

  @Test
  void aHandlerCanCallBackTheClientWhileItRuns() {
    InProcessTransport pair = new InProcessTransport(mapper, m -> Optional.empty());
    McpSchema.Tool tool = McpSchema.Tool.builder().name("ping_back")
        .inputSchema(Map.of("type", "object")).build();
    McpSyncServer server = McpServer.sync(pair.serverSide()).serverInfo("t", "1").jsonMapper(mapper)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .toolCall(tool, (exchange, req) -> {
          exchange.ping(); // a server -> client request, answered while this call is in flight
          return CallToolResult.builder().addTextContent("pinged").build();
        })
        .build();
    McpSyncClient client = McpClient.sync(pair.clientSide()).requestTimeout(Duration.ofSeconds(10)).build();
    toClose.add(pair);
    toClose.add(server::close);
    toClose.add(client::close);

    CallToolResult result = client.callTool(new CallToolRequest("ping_back", Map.of()));

    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("pinged");
    assertThat(pair.serverToClient()).anySatisfy(t -> assertThat(t).contains("\"method\":\"ping\""));
    assertThat(pair.clientToServer()).anySatisfy(t -> assertThat(t).contains("\"result\":{}"));
  }

  @Test
  void aCaptureInTheTransportContextReceivesTheRawReply() {
    InProcessTransport pair = new InProcessTransport(mapper, m -> Optional.empty());
    McpSchema.Tool echo = McpSchema.Tool.builder().name("echo")
        .inputSchema(Map.of("type", "object")).build();
    McpSyncServer server = McpServer.sync(pair.serverSide()).serverInfo("t", "1").jsonMapper(mapper)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .toolCall(echo, (ex, req) -> CallToolResult.builder().addTextContent("pong").build())
        .build();
    ThreadLocal<ReplyCapture> current = new ThreadLocal<>();
    McpSyncClient client = McpClient.sync(pair.clientSide())
        .transportContextProvider(() -> current.get() == null
            ? io.modelcontextprotocol.common.McpTransportContext.EMPTY
            : current.get().asTransportContext())
        .build();
    toClose.add(pair);
    toClose.add(server::close);
    toClose.add(client::close);

    ReplyCapture capture = new ReplyCapture("tools/call");
    current.set(capture);
    try {
      client.callTool(new CallToolRequest("echo", Map.of())); // also initializes, in the same context
    } finally {
      current.remove();
    }

    assertThat(capture.raw()).startsWith("{").contains("\"pong\"").doesNotContain("protocolVersion");
  }

  /** A value Jackson cannot write: its getter throws. */
  public static final class Boom {
    public String getSecret() {
      throw new IllegalStateException("SECRET-IN-EXCEPTION");
    }
  }

  @Test
  void aReplyThatCannotBeSerializedBecomesAnInternalErrorInsteadOfATimeout() {
    InProcessTransport pair = new InProcessTransport(mapper, m -> Optional.empty());
    McpSchema.Tool tool = McpSchema.Tool.builder().name("broken")
        .inputSchema(Map.of("type", "object")).build();
    McpSyncServer server = McpServer.sync(pair.serverSide()).serverInfo("t", "1").jsonMapper(mapper)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .toolCall(tool, (ex, req) -> CallToolResult.builder().addTextContent("x")
            .structuredContent(Map.of("thing", new Boom())).build())
        .build();
    McpSyncClient client = McpClient.sync(pair.clientSide()).requestTimeout(Duration.ofSeconds(20)).build();
    toClose.add(pair);
    toClose.add(server::close);
    toClose.add(client::close);

    long start = System.nanoTime();
    assertThatThrownBy(() -> client.callTool(new CallToolRequest("broken", Map.of())))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("Internal error");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(pair.serverToClient().get(pair.serverToClient().size() - 1))
        .contains("\"code\":-32603").doesNotContain("SECRET");
  }

  @Test
  void closingStopsDeliveryAndFailsLaterSends() {
    InProcessTransport[] pair = new InProcessTransport[1];
    McpSyncClient client = start(m -> Optional.empty(), pair, null);
    assertThat(client.callTool(echo("x")).isError()).isNotEqualTo(Boolean.TRUE);

    pair[0].close();
    pair[0].close(); // idempotent

    assertThat(pair[0].isClosed()).isTrue();
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.isAlive() && t.getName().startsWith(pair[0].threadPrefix()));
    assertThatThrownBy(() -> pair[0].clientSide().sendMessage(
        new JSONRPCRequest("ping", "late-1", null)).block(Duration.ofSeconds(2)))
        .hasMessageContaining("closed");
  }
}
