package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.fixtures.HttpWire;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.ToolResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A 2026-07-28 request must name its protocol version in {@code params._meta}: the schema makes
 * {@code io.modelcontextprotocol/protocolVersion} a required string, and the official conformance
 * suite expects a request whose {@code _meta} lacks it to be refused with -32602 (HTTP 400) even
 * when the {@code MCP-Protocol-Version} header names the era. A request whose era comes from the
 * header alone, or whose {@code _meta} version is {@code null}, is therefore answered with -32602
 * naming the missing key — on every method the edge answers itself, over every transport — and
 * never with an internal error or a logged stack trace.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProtocolVersionInMetaTest {
  private static final List<String> METHODS = List.of(JsonRpc.TOOLS_CALL, JsonRpc.PROMPTS_GET,
      JsonRpc.RESOURCES_READ, JsonRpc.COMPLETE);

  private static FusionServer server() {
    return BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT).build();
  }

  /** The params of a valid request of {@code method} to the billing sample, without {@code _meta}. */
  private static Map<String, Object> params(String method) {
    Map<String, Object> params = new LinkedHashMap<>();
    switch (method) {
      case JsonRpc.TOOLS_CALL -> {
        params.put("name", "billing_get_invoice");
        params.put("arguments", Map.of("id", "INV-0001"));
      }
      case JsonRpc.PROMPTS_GET -> {
        params.put("name", "overdue_invoices");
        params.put("arguments", Map.of("audience", "the finance team"));
      }
      case JsonRpc.RESOURCES_READ -> params.put("uri", "billing://invoices/open");
      case JsonRpc.COMPLETE -> {
        params.put("ref", Map.of("type", "ref/resource", "uri", "billing://invoices/{id}"));
        params.put("argument", Map.of("name", "id", "value", "INV-000"));
      }
      default -> throw new IllegalArgumentException(method);
    }
    return params;
  }

  /** {@code _meta} with the client capabilities and, when {@code nullVersion}, a {@code null} version. */
  private static Map<String, Object> meta(boolean nullVersion) {
    Map<String, Object> meta = new HashMap<>();
    meta.put(Meta.CLIENT_CAPABILITIES, Map.of());
    if (nullVersion) {
      meta.put(Meta.PROTOCOL_VERSION, null);
    }
    return meta;
  }

  private static String request(Object id, String method, Map<String, Object> meta) {
    Map<String, Object> params = params(method);
    params.put("_meta", meta);
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.put("params", params);
    return Json.write(message);
  }

  private static void assertNamesTheMissingVersion(Map<?, ?> error, String method) {
    assertThat(error).as("%s", method).isNotNull();
    assertThat(((Number) error.get("code")).intValue()).as("%s", method).isEqualTo(JsonRpc.INVALID_PARAMS);
    assertThat((String) error.get("message")).as("%s", method)
        .contains(Meta.PROTOCOL_VERSION).contains(ProtocolVersions.MODERN)
        .doesNotContain("Internal error").doesNotContain("Exception");
  }

  /** Nothing logged at ERROR, and no stack frame, while {@code body} ran. */
  private static void assertNothingLoggedAtError(String log) {
    assertThat(log.lines().filter(line -> line.contains(" ERROR ")).toList()).isEmpty();
    assertThat(log).doesNotContain("NullPointerException").doesNotContain("\tat ");
  }

  @Test
  void overStdioANullVersionInMetaIsInvalidParamsNamingIt() {
    String log = HiddenSentinelPropertyTest.captureLog(() -> {
      try (Stdio stdio = new Stdio(server())) {
        int id = 1;
        for (String method : METHODS) {
          Map<?, ?> reply = stdio.exchange(request(id, method, meta(true)));
          assertThat(((Number) reply.get("id")).intValue()).isEqualTo(id++);
          assertNamesTheMissingVersion((Map<?, ?>) reply.get("error"), method);
        }
        // The stream goes on: the same request with its version is served.
        Map<String, Object> valid = meta(false);
        valid.put(Meta.PROTOCOL_VERSION, ProtocolVersions.MODERN);
        Map<?, ?> served = stdio.exchange(request(id, JsonRpc.TOOLS_CALL, valid));
        assertThat(((Map<?, ?>) served.get("result")).get("isError")).isEqualTo(false);
      }
    });
    assertNothingLoggedAtError(log);
  }

  @Test
  void overHttpTheHeaderAloneOrANullVersionInMetaIs400InvalidParams() throws Exception {
    HttpWire wire = new HttpWire();
    List<String> logs = new ArrayList<>();
    try (FusionHttpServer running = FusionHttp.serve(server(),
        HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      Map<String, String> header = Map.of("MCP-Protocol-Version", ProtocolVersions.MODERN);
      logs.add(HiddenSentinelPropertyTest.captureLog(() -> {
        int id = 1;
        for (String method : METHODS) {
          for (boolean nullVersion : new boolean[] {false, true}) {
            HttpResponse<String> response = post(wire, url, request(id, method, meta(nullVersion)), header);
            assertThat(response.statusCode()).as("%s", method).isEqualTo(400);
            Map<?, ?> reply = (Map<?, ?>) Json.parse(response.body());
            assertThat(((Number) reply.get("id")).intValue()).isEqualTo(id++);
            assertNamesTheMissingVersion((Map<?, ?>) reply.get("error"), method);
          }
        }
      }));
    }
    assertNothingLoggedAtError(String.join("\n", logs));
  }

  private static HttpResponse<String> post(HttpWire wire, String url, String body,
      Map<String, String> headers) {
    try {
      return wire.post(url, null, body, headers);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void overTheTesterANullVersionInMetaIsInvalidParamsNamingIt() {
    String log = HiddenSentinelPropertyTest.captureLog(() -> {
      try (FusionTester tester = FusionTester.of(
          BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT))
          .protocolVersion(FusionTester.MODERN)) {
        ToolResult call = tester.callTool("billing_get_invoice", Map.of("id", "INV-0001"), meta(true));
        assertThat(call.jsonRpcError()).isNotNull();
        assertNamesTheMissingVersion(Map.of("code", call.jsonRpcError().code(),
            "message", call.jsonRpcError().message()), JsonRpc.TOOLS_CALL);
        for (String method : METHODS.subList(1, METHODS.size())) {
          Map<String, Object> params = params(method);
          params.put("_meta", meta(true));
          McpResponse response = tester.request(method, params);
          assertThat(response.isError()).as("%s", method).isTrue();
          assertNamesTheMissingVersion(Map.of("code", response.errorCode(),
              "message", response.errorMessage()), method);
        }
        assertThat(tester.call("billing", "get_invoice", Map.of("id", "INV-0001")).isSuccess()).isTrue();
      }
    });
    assertNothingLoggedAtError(log);
  }

  /** The server on a stdio transport over two NIO pipes, for raw lines. */
  private static final class Stdio implements AutoCloseable {
    private final OutputStream toServer;
    private final BufferedReader fromServer;
    private final Thread serving;

    Stdio(FusionServer server) {
      try {
        java.nio.channels.Pipe input = java.nio.channels.Pipe.open();
        java.nio.channels.Pipe output = java.nio.channels.Pipe.open();
        toServer = java.nio.channels.Channels.newOutputStream(input.sink());
        OutputStream serverOut = java.nio.channels.Channels.newOutputStream(output.sink());
        fromServer = new BufferedReader(new InputStreamReader(
            java.nio.channels.Channels.newInputStream(output.source()), StandardCharsets.UTF_8));
        StdioTransport transport = new StdioTransport(
            java.nio.channels.Channels.newInputStream(input.source()), serverOut, server.edge(),
            Duration.ofSeconds(30));
        serving = new Thread(() -> {
          try {
            transport.serve();
            serverOut.close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }, "stdio-protocol-version");
        serving.start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    Map<?, ?> exchange(String line) {
      try {
        toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
        String reply = fromServer.readLine();
        assertThat(reply).isNotNull();
        return (Map<?, ?>) Json.parse(reply);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      try {
        toServer.close();
        serving.join(30_000);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
