package dev.mcpfusion.samples.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.conformance.fixtures.RegionTools;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code @McpHeader} over real HTTP: the arguments it marks (action parameters and a component
 * of the router's common record) are listed with {@code x-mcp-header}, and a 2026-07-28 call must
 * mirror each one it sends in its {@code Mcp-Param-*} header, exactly as for an
 * {@code @InputSchema} document ({@link ParamHeadersHttpTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class McpHeaderHttpTest {
  private static final String TOOL = "region_capacity";
  private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
      + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private FusionHttpServer running;
  private URI endpoint;

  @BeforeEach
  void start() {
    running = FusionHttp.serve(FusionServer.builder("regions", "1.0.0").register(new RegionTools())
        .build(), HttpOptions.port(0).stopOnShutdownSignal(false));
    endpoint = running.endpoint();
  }

  @AfterEach
  void stop() {
    running.close();
  }

  private HttpResponse<String> post(String method, String name, String params, String... headers)
      throws Exception {
    String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":{" + params
        + (params.isEmpty() ? "" : ",") + META + "}}";
    List<String> all = new ArrayList<>(List.of("Content-Type", "application/json",
        "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28",
        "Mcp-Method", method));
    if (name != null) {
      all.addAll(List.of("Mcp-Name", name));
    }
    all.addAll(List.of(headers));
    HttpRequest request = HttpRequest.newBuilder(endpoint).headers(all.toArray(String[]::new))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> call(String arguments, String... headers) throws Exception {
    return post("tools/call", TOOL, "\"name\":\"" + TOOL + "\",\"arguments\":" + arguments, headers);
  }

  @Test
  void theMarkedArgumentsAreListedWithTheirHeaders() throws Exception {
    HttpResponse<String> list = post("tools/list", null, "");
    assertThat(list.statusCode()).isEqualTo(200);
    Map<?, ?> tool = (Map<?, ?>) ((List<?>) ((Map<?, ?>) ((Map<?, ?>) Json.parse(list.body()))
        .get("result")).get("tools")).get(0);
    Map<?, ?> properties = (Map<?, ?>) ((Map<?, ?>) tool.get("inputSchema")).get("properties");
    assertThat(((Map<?, ?>) properties.get("region")).get("x-mcp-header")).isEqualTo("Region");
    assertThat(((Map<?, ?>) properties.get("priority")).get("x-mcp-header")).isEqualTo("Priority");
    assertThat(((Map<?, ?>) properties.get("tenant")).get("x-mcp-header")).isEqualTo("Tenant");
  }

  @Test
  void aCallThatMirrorsItsArgumentsIsServed() throws Exception {
    HttpResponse<String> plain = call("{\"tenant\":\"t1\",\"region\":\"eu\"}",
        "Mcp-Param-Tenant", "t1", "Mcp-Param-Region", "eu");
    assertThat(plain.statusCode()).isEqualTo(200);
    assertThat(plain.body()).contains("t1/eu at priority 0").doesNotContain("\"error\"");
    assertThat(call("{\"tenant\":\"t1\",\"region\":\"eu\",\"priority\":7}", "Mcp-Param-Tenant",
        "t1", "Mcp-Param-Region", "=?base64?ZXU=?=", "Mcp-Param-Priority", "7").body())
        .contains("t1/eu at priority 7");
  }

  @Test
  void aMissingOrDisagreeingHeaderIsRefused() throws Exception {
    HttpResponse<String> noRegion = call("{\"tenant\":\"t1\",\"region\":\"eu\"}",
        "Mcp-Param-Tenant", "t1");
    assertThat(noRegion.statusCode()).isEqualTo(400);
    assertThat(noRegion.body()).contains("\"code\":-32020").contains("Header mismatch: the"
        + " Mcp-Param-Region header is missing. The tool \\\"" + TOOL + "\\\" mirrors its argument"
        + " \\\"region\\\" there: send Mcp-Param-Region: eu");
    HttpResponse<String> noTenant = call("{\"tenant\":\"t1\",\"region\":\"eu\"}",
        "Mcp-Param-Region", "eu");
    assertThat(noTenant.statusCode()).isEqualTo(400);
    assertThat(noTenant.body()).contains("the Mcp-Param-Tenant header is missing");
    HttpResponse<String> other = call("{\"tenant\":\"t1\",\"region\":\"eu\",\"priority\":7}",
        "Mcp-Param-Tenant", "t1", "Mcp-Param-Region", "eu", "Mcp-Param-Priority", "8");
    assertThat(other.statusCode()).isEqualTo(400);
    assertThat(other.body()).contains("the Mcp-Param-Priority header");
  }
}
