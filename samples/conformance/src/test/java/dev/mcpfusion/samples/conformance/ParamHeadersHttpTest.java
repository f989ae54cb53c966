package dev.mcpfusion.samples.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SEP-2243 custom headers over real HTTP: {@code json_custom_header_tool} marks {@code region}
 * ({@code x-mcp-header: Region}) and {@code priority} ({@code Priority}); a 2026-07-28 call must
 * mirror each argument it sends in {@code Mcp-Param-<Name>}, plainly or as {@code =?base64?…?=}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParamHeadersHttpTest {
  private static final String TOOL = "json_custom_header_tool";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private FusionHttpServer running;
  private URI endpoint;

  @BeforeEach
  void start() {
    running = FusionHttp.serve(ConformanceConnector.builder().build(),
        HttpOptions.port(0).stopOnShutdownSignal(false));
    endpoint = running.endpoint();
  }

  @AfterEach
  void stop() {
    running.close();
  }

  private HttpResponse<String> call(String arguments, String... headers) throws Exception {
    String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + TOOL
        + "\",\"arguments\":" + arguments + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
        + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    List<String> all = new ArrayList<>(List.of("Content-Type", "application/json",
        "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28",
        "Mcp-Method", "tools/call", "Mcp-Name", TOOL));
    all.addAll(List.of(headers));
    HttpRequest request = HttpRequest.newBuilder(endpoint).headers(all.toArray(String[]::new))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static void refused(HttpResponse<String> response, String message) {
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("\"code\":-32020").contains(message);
  }

  @Test
  void aMirroredArgumentIsServedPlainOrBase64AndAnyOtherValueIsLiteral() throws Exception {
    HttpResponse<String> plain = call("{\"region\":\"eu-west\"}", "Mcp-Param-Region", " eu-west ");
    assertThat(plain.statusCode()).isEqualTo(200);
    assertThat(plain.body()).contains("Region: eu-west").doesNotContain("\"error\"");
    // "Hello" as =?base64?SGVsbG8=?=; header names are case-insensitive.
    assertThat(call("{\"region\":\"Hello\"}", "mcp-param-region", "=?base64?SGVsbG8=?=").statusCode())
        .isEqualTo(200);
    // Without the exact wrapper a value is literal, Base64-looking or not.
    assertThat(call("{\"region\":\"SGVsbG8=\"}", "Mcp-Param-Region", "SGVsbG8=").statusCode()).isEqualTo(200);
    assertThat(call("{\"region\":\"=?base64?SGVsbG8=\"}", "Mcp-Param-Region", "=?base64?SGVsbG8=")
        .statusCode()).isEqualTo(200);
    // Integers compare as numbers.
    assertThat(call("{\"region\":\"eu\",\"priority\":7}", "Mcp-Param-Region", "eu",
        "Mcp-Param-Priority", "7.0").statusCode()).isEqualTo(200);
  }

  @Test
  void aMissingDisagreeingOrBadlyEncodedHeaderIsRefused() throws Exception {
    refused(call("{\"region\":\"eu\"}"), "Header mismatch: the Mcp-Param-Region header is missing."
        + " The tool \\\"" + TOOL + "\\\" mirrors its argument \\\"region\\\" there: send Mcp-Param-Region: eu");
    refused(call("{\"region\":\"eu\"}", "Mcp-Param-Region", "us"),
        "the Mcp-Param-Region header \\\"us\\\" does not match the argument \\\"region\\\" \\\"eu\\\"");
    refused(call("{\"region\":\"Hello\"}", "Mcp-Param-Region", "=?base64?SGVsbG8?="),
        "payload is not valid Base64");
    refused(call("{\"region\":\"Hello\"}", "Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="),
        "payload is not valid Base64");
    refused(call("{\"region\":\"eu\",\"priority\":7}", "Mcp-Param-Region", "eu",
        "Mcp-Param-Priority", "8"), "the Mcp-Param-Priority header");
  }

  @Test
  void anAbsentArgumentExpectsNoHeader() throws Exception {
    assertThat(call("{\"region\":\"eu\"}", "Mcp-Param-Region", "eu").statusCode()).isEqualTo(200);
  }
}
