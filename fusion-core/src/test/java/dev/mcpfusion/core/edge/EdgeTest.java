package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The edge on its own, fed raw JSON text as a transport would: the lifecycle and never-silent
 * rules, the params check of {@code tools/call}, and parsing each message once.
 */
class EdgeTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  private final FusionServer server = FusionServer.builder("billing", "1.0.0")
      .register(new BillingTools())
      .context(Tenant.class, request -> new Tenant("t_1"))
      .build();
  private final Edge edge = server.edge();
  private final Wire wire = new Wire();
  private final EdgeSession session = edge.openSession(wire);

  @AfterEach
  void close() {
    session.close();
    edge.close();
  }

  /** Collects what the edge writes; replies by id. */
  static final class Wire implements Sink {
    final List<String> written = Collections.synchronizedList(new ArrayList<>());
    final Map<String, CompletableFuture<Map<String, Object>>> replies = new ConcurrentHashMap<>();

    @Override
    public void reply(Object id, int errorCode, byte[] json) {
      String text = new String(json, StandardCharsets.UTF_8);
      written.add(text);
      replies.computeIfAbsent(String.valueOf(id), k -> new CompletableFuture<>()).complete(parse(text));
    }

    @Override
    public void push(byte[] json) {
      written.add(new String(json, StandardCharsets.UTF_8));
    }

    Map<String, Object> reply(Object id) {
      try {
        return replies.computeIfAbsent(String.valueOf(id), k -> new CompletableFuture<>())
            .get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError("no reply to id " + id + "; wrote " + written, e);
      }
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> parse(String json) {
    return JSON.readValue(json, Map.class);
  }

  private void send(String json) {
    edge.receive(json, Inbound.stdio(), session);
  }

  private static String call(Object id, String tool, String args) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":" + args + "}}";
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> error(Map<String, Object> reply) {
    return (Map<String, Object>) reply.get("error");
  }

  @Test
  void aToolCallBeforeInitializeIsAnsweredAtOnceWithWhatToDo() {
    send(call(5, "billing_get_invoice", "{\"id\":\"INV-0001\"}"));
    Map<String, Object> reply = wire.reply(5);
    assertThat(reply.get("id")).isEqualTo(5);
    assertThat(error(reply).get("code")).isEqualTo(-32600);
    assertThat((String) error(reply).get("message")).contains("send initialize first");
  }

  @Test
  void aModernRequestThatDoesNotNameItsVersionIsInvalidParamsSayingWhy() {
    Inbound header = Inbound.of("http", Map.of("MCP-Protocol-Version", ProtocolVersions.MODERN));
    String version = "\"" + Meta.PROTOCOL_VERSION + "\"";
    Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put("{}", version + " is missing from params._meta");
    cases.put("{\"_meta\":5}", "params._meta must be an object that names the protocol version");
    cases.put("{\"_meta\":{" + version + ":null}}", version + " is null in params._meta");
    cases.put("{\"_meta\":{" + version + ":20260728}}", version + " in params._meta must be a string");
    int id = 100;
    for (Map.Entry<String, String> c : cases.entrySet()) {
      for (String method : List.of(JsonRpc.TOOLS_CALL, JsonRpc.DISCOVER, JsonRpc.TOOLS_LIST)) {
        String params = c.getKey().equals("{}") ? "{\"name\":\"billing_get_invoice\"}"
            : c.getKey().replace("{\"_meta\"", "{\"name\":\"billing_get_invoice\",\"_meta\"");
        edge.dispatch(edge.read("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method
            + "\",\"params\":" + params + "}"), header, null, wire);
        Map<String, Object> error = error(wire.reply(id++));
        assertThat(error.get("code")).as("%s %s", method, c.getKey()).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(error.get("message")).as("%s %s", method, c.getKey()).isEqualTo("Invalid params: "
            + c.getValue() + ". Every 2026-07-28 request names its protocol version there (over"
            + " HTTP, the MCP-Protocol-Version header as well); this server speaks 2026-07-28.");
      }
    }
  }

  // ---- what a client sent is echoed cut (Echo) ------------------------------------------------

  private static final String HUGE = "x".repeat(100_000);
  private static final String HUGE_QUOTED = "\"" + "x".repeat(Echo.MAX_CHARS) + "\u2026\" (100000 characters)";

  /** The whole reply to {@code id}, which must be short and must not repeat the huge text whole. */
  private String shortReply(Object id) {
    String text = JSON.writeValueAsString(wire.reply(id));
    assertThat(text.length()).as("reply %s", id).isLessThan(2_000);
    return text;
  }

  @Test
  void anUnknownToolNameIsEchoedCut() {
    send(INIT);
    wire.reply(1);
    send(call(2, HUGE, "{}"));
    shortReply(2);
    assertThat(error(wire.reply(2)).get("message").toString())
        .contains("<message>The tool " + HUGE_QUOTED + " does not exist.</message>")
        .contains("<tool>billing_get_invoice</tool>");
  }

  @Test
  void aMethodNameIsEchoedCutBeforeInitializeAndWhenUnknown() {
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"" + HUGE + "\"}");
    shortReply(3);
    assertThat(error(wire.reply(3)).get("message").toString())
        .endsWith("then notifications/initialized, then " + HUGE_QUOTED + ".");
    send(INIT);
    wire.reply(1);
    send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"" + HUGE + "\"}");
    shortReply(4);
    assertThat(error(wire.reply(4))).containsEntry("code", JsonRpc.METHOD_NOT_FOUND)
        .containsEntry("message", "Method not found: " + HUGE_QUOTED + ".");
    edge.dispatch(edge.read("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"" + HUGE + "\",\"params\":"
        + "{\"_meta\":{\"" + Meta.PROTOCOL_VERSION + "\":\"2026-07-28\",\"" + Meta.CLIENT_CAPABILITIES
        + "\":{}}}}"), Inbound.stdio(), null, wire);
    shortReply(5);
    assertThat(error(wire.reply(5))).containsEntry("code", JsonRpc.METHOD_NOT_FOUND)
        .containsEntry("message", "Method not found: " + HUGE_QUOTED + ".");
  }

  @Test
  void anUnsupportedProtocolVersionIsEchoedCut() {
    edge.dispatch(edge.read("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\",\"params\":"
        + "{\"_meta\":{\"" + Meta.PROTOCOL_VERSION + "\":\"" + HUGE + "\",\"" + Meta.CLIENT_CAPABILITIES
        + "\":{}}}}"), Inbound.stdio(), null, wire);
    shortReply(6);
    Map<String, Object> error = error(wire.reply(6));
    assertThat(error).containsEntry("code", JsonRpc.UNSUPPORTED_PROTOCOL_VERSION)
        .containsEntry("data", Map.of("supported", List.of(ProtocolVersions.MODERN),
            "requested", "x".repeat(Echo.MAX_CHARS) + "\u2026"));
    // A short unsupported version is still named whole, as the SDK named it.
    edge.dispatch(edge.read("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":"
        + "{\"_meta\":{\"" + Meta.PROTOCOL_VERSION + "\":\"2099-01-01\",\"" + Meta.CLIENT_CAPABILITIES
        + "\":{}}}}"), Inbound.stdio(), null, wire);
    assertThat(error(wire.reply(7))).containsEntry("code", JsonRpc.UNSUPPORTED_PROTOCOL_VERSION)
        .containsEntry("message", "Unsupported protocol version")
        .containsEntry("data", Map.of("supported", List.of(ProtocolVersions.MODERN),
            "requested", "2099-01-01"));
  }

  @Test
  void theIdOfARequestStillInFlightIsEchoedCut() throws Exception {
    java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    FusionServer blocking = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_1"))
        .middleware((call, next) -> {
          entered.countDown();
          release.await(20, TimeUnit.SECONDS);
          return next.proceed(call);
        })
        .build();
    Wire out = new Wire();
    EdgeSession held = blocking.edge().openSession(out);
    try {
      blocking.edge().receive(INIT, Inbound.stdio(), held);
      out.reply(1);
      String id = JSON.writeValueAsString(HUGE);
      Thread first = new Thread(() -> blocking.edge().receive(
          call(id, "billing_get_invoice", "{\"id\":\"INV-0001\"}"), Inbound.stdio(), held));
      first.start();
      assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
      blocking.edge().receive(call(id, "billing_get_invoice", "{\"id\":\"INV-0001\"}"),
          Inbound.stdio(), held);
      Map<String, Object> refused = out.reply(null);
      assertThat(JSON.writeValueAsString(refused).length()).isLessThan(2_000);
      assertThat(error(refused).get("message")).isEqualTo("Invalid Request: a request with id "
          + HUGE_QUOTED + " is still in flight; use a new id.");
      release.countDown();
      first.join(20_000);
    } finally {
      release.countDown();
      held.close();
      blocking.edge().close();
    }
  }

  @Test
  void pingIsAnsweredBeforeInitialize() {
    send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
    assertThat(wire.reply("p")).containsEntry("result", Map.of());
  }

  @Test
  void aToolCallBeforeNotificationsInitializedIsServed() {
    send(INIT);
    assertThat(wire.reply(1)).containsKey("result");
    send(call(2, "billing_get_invoice", "{\"id\":\"INV-0001\"}"));
    Map<String, Object> reply = wire.reply(2);
    assertThat(reply).containsKey("result");
    assertThat(reply.get("result").toString()).contains("INV-0001");
  }

  @Test
  void anotherRequestBeforeNotificationsInitializedIsServedToo() {
    send(INIT);
    wire.reply(1);
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
    assertThat(wire.reply(3).get("result").toString()).contains("billing_get_invoice");
    // A late notifications/initialized changes nothing and is not an error.
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
    assertThat(wire.reply(4)).containsKey("result");
  }

  @Test
  void theNegotiatedVersionReachesTheSession() {
    send(INIT);
    wire.reply(1);
    assertThat(session.protocolVersion()).isEqualTo("2025-11-25");
  }

  @Test
  void anOversizedMessageIsAnsweredWithItsIdWhenTheTopLevelHasIt() {
    StringBuilder big = new StringBuilder("{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"tools/call\","
        + "\"params\":{\"name\":\"billing_get_invoice\",\"arguments\":{\"id\":\"");
    byte[] prefix = big.append("x".repeat(70_000)).toString().getBytes(StandardCharsets.UTF_8);
    Message message = edge.oversized(prefix, 65_536, 10 * 1024 * 1024);
    assertThat(message.kind()).isEqualTo(Message.Kind.INVALID);
    assertThat(message.id()).isEqualTo(7);
    edge.dispatch(message, Inbound.stdio(), session, wire);
    assertThat(error(wire.reply(7)).get("message").toString()).contains("larger than 10485760 bytes");
  }

  @Test
  void anOversizedMessageWhoseIdComesAfterNestedValuesStillFindsIt() {
    byte[] prefix = ("{\"jsonrpc\":\"2.0\",\"params\":{\"a\":[1,{\"id\":99}]},\"id\":\"late\",\"x\":\""
        + "y".repeat(1000)).getBytes(StandardCharsets.UTF_8);
    assertThat(edge.oversized(prefix, prefix.length, 100).id()).isEqualTo("late");
    byte[] cut = "{\"jsonrpc\":\"2.0\",\"params\":{\"a\":\"zzzz".getBytes(StandardCharsets.UTF_8);
    assertThat(edge.oversized(cut, cut.length, 100).id()).isNull();
  }

  @Test
  void malformedMessagesGetTheCodeTheSpecNamesAndTheSessionGoesOn() {
    send("{not json");
    assertThat(error(wire.reply(null)).get("code")).isEqualTo(-32700);
    send("{\"jsonrpc\":\"1.0\",\"id\":8,\"method\":\"ping\"}");
    assertThat(error(wire.reply(8)).get("code")).isEqualTo(-32600);
    send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}");
    send(INIT);
    wire.reply(1);
    send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}");
    assertThat(error(wire.reply(10))).containsEntry("code", -32602).containsEntry("message",
        "Invalid params: the field \"name\" is missing; tools/call needs the tool name.");
    send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":5}}");
    assertThat(error(wire.reply(11)).get("message")).isEqualTo("Invalid params: the field \"name\" must be a string.");
    send(call(12, "billing_get_invoice", "\"id=1\""));
    assertThat(error(wire.reply(12)).get("message")).isEqualTo("Invalid params: the field \"arguments\" must be an object.");
    send("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\"}");
    assertThat(wire.reply(13)).containsKey("result");
  }

  @Test
  void anUnknownToolIsInvalidParamsWithTheToolErrorText() {
    send(INIT);
    wire.reply(1);
    send(call(7, "billing.refund", "{}"));
    Map<String, Object> error = error(wire.reply(7));
    assertThat(error.get("code")).isEqualTo(-32602);
    assertThat(error.get("message")).isEqualTo("""
        <tool_error code="UNKNOWN_TOOL" severity="error">
        <message>The tool "billing.refund" does not exist.</message>
        <recovery>Choose one of the available tools and call it again.</recovery>
        <available_tools>
          <tool>billing_list_invoices</tool>
          <tool>billing_get_invoice</tool>
          <tool>billing_void_invoice</tool>
        </available_tools>
        </tool_error>""");
    assertThat(error.get("data")).isEqualTo(Map.of("code", "UNKNOWN_TOOL", "available",
        List.of("billing_list_invoices", "billing_get_invoice", "billing_void_invoice")));
  }

  @Test
  void eachMessageIsParsedOnce() {
    long before = edge.messagesParsed();
    send(INIT);
    wire.reply(1);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
    wire.reply(2);
    send(call(3, "billing_get_invoice", "{\"id\":\"INV-0001\"}"));
    wire.reply(3);
    send(call(4, "billing_get_invoice", "{\"id\":\"INV-0001\"}").replace("\"arguments\"",
        "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"},\"arguments\""));
    wire.reply(4);
    assertThat(edge.messagesParsed() - before).isEqualTo(5);
  }

  @Test
  void aResultThatCannotBeWrittenIsAnInternalErrorForItsIdAndIsLoggedOnce() {
    StderrLog log = StderrLog.capture();
    edge.resultWriter((id, reply, modern) -> {
      throw new IllegalArgumentException("SECRET-DETAIL: no JSON for this value");
    });
    try {
      send(INIT);
      wire.reply(1);
      send(call(21, "billing_get_invoice", "{\"id\":\"INV-0001\"}"));
      Map<String, Object> reply = wire.reply(21);
      assertThat(reply.get("id")).isEqualTo(21);
      assertThat(error(reply).get("code")).isEqualTo(-32603);
      assertThat(wire.written).noneMatch(text -> text.contains("SECRET-DETAIL")
          || text.contains("IllegalArgumentException"));
      assertThat(log.events()).hasSize(1);
    } finally {
      log.close();
    }
  }

  @Test
  void anExceptionInsideTheEdgeIsLoggedOnceAndNoTextOfItIsSent() {
    StderrLog log = StderrLog.capture();
    List<String> written = new ArrayList<>();
    Sink failsOnce = new Sink() {
      boolean failed;

      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        if (!failed) {
          failed = true;
          throw new IllegalStateException("SECRET-DETAIL of a broken transport");
        }
        written.add(new String(json, StandardCharsets.UTF_8));
      }

      @Override
      public void push(byte[] json) {
        written.add(new String(json, StandardCharsets.UTF_8));
      }
    };
    try {
      edge.dispatch(edge.read("{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"ping\"}"), Inbound.stdio(),
          session, failsOnce);
      assertThat(written).hasSize(1);
      Map<String, Object> reply = parse(written.get(0));
      assertThat(reply.get("id")).isEqualTo(31);
      assertThat(error(reply).get("code")).isEqualTo(-32603);
      assertThat(written.get(0)).doesNotContain("SECRET-DETAIL").doesNotContain("IllegalStateException");
      assertThat(log.events()).hasSize(1);
    } finally {
      log.close();
    }
  }

  @Test
  void theParserReadsWhatTheFrameworkMapperReadsTypeForType() {
    JsonMapper framework = dev.mcpfusion.core.server.McpJson.newJacksonMapper();
    for (String json : List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":"
            + "{\"i\":7,\"l\":9000000000,\"b\":123456789012345678901234567890,\"d\":0.1,\"e\":1e3,\"s\":\"x\\u00e9\","
            + "\"n\":null,\"t\":true,\"f\":false,\"a\":[1,[2,{}],\"z\"],\"o\":{\"k\":{}}}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{}}")) {
      Object expected = framework.readValue(json, Object.class);
      Object actual = edge.read(json).tree();
      assertThat(actual).isEqualTo(expected);
      assertThat(types(actual)).isEqualTo(types(expected));
    }
  }

  @Test
  void theParserRejectsWhatTheFrameworkMapperRejects() {
    for (String json : List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":NaN}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":"
            + "[".repeat(1000) + "]".repeat(1000) + "}}",
        "")) {
      Message message = edge.read(json);
      assertThat(message.kind()).as(json.length() > 80 ? json.substring(0, 80) : json)
          .isEqualTo(Message.Kind.INVALID);
      assertThat(message.errorCode()).isEqualTo(-32700);
    }
  }

  /** The tree with every leaf replaced by its class name, to compare number types. */
  private static Object types(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      Map<Object, Object> out = new java.util.LinkedHashMap<>();
      map.forEach((k, v) -> out.put(k, types(v)));
      return out;
    }
    if (tree instanceof List<?> list) {
      return list.stream().map(EdgeTest::types).toList();
    }
    return tree == null ? "null" : tree.getClass().getName();
  }
}
