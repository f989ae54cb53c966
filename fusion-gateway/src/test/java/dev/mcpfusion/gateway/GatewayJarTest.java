package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.conformance.ConformanceConnector;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable gateway as a user runs it: {@code java -jar fusion-gateway.jar --config gateway.yaml}
 * with the module's sample config (its billing upstream the billing sample's jar, its conformance
 * upstream moved to an ephemeral port), listing the tools of both upstreams over stdio, and with
 * {@code --http 0} listing and calling them over Streamable HTTP (a plain HTTP client, and the
 * official TypeScript client when {@code clients/} is installed) and stopping on SIGTERM with its
 * upstream's process. The jar is
 * reproducible: the project's entries carry the build's fixed timestamp (the root pom's
 * {@code project.build.outputTimestamp}), not the clock of the build.
 *
 * <p>Runs after {@code package} (this module's surefire execution {@code runnable-jar}), since the
 * jar does not exist before.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class GatewayJarTest {
  private static final Path BUILD = Path.of(System.getProperty("fusion.buildDir", "target")).toAbsolutePath().normalize();
  private static final Path JAR = BUILD.resolve("fusion-gateway.jar");
  private static final Path SAMPLE = BUILD.resolve("../gateway.yaml").normalize();
  private static final Path BILLING_JAR = BUILD.resolve("../../samples/billing/target/fusion-sample-billing.jar").normalize();

  @TempDir Path dir;

  private static void afterPackage() {
    // A focused -Dtest run reaches the test phase too, where the jar is the last build's, if any.
    assumeTrue(Boolean.getBoolean("fusion.afterPackage"), "runs in the runnable-jar execution, after package");
    assertThat(JAR).as("the jar package builds").isRegularFile();
  }

  /** The module's sample config with the billing jar's path and {@code conformance}'s endpoint. */
  private Path sampleConfig(FusionHttpServer conformance) throws IOException {
    assertThat(BILLING_JAR).as("the billing sample's jar, which the sample config starts (package samples/billing)")
        .isRegularFile();
    String sample = Files.readString(SAMPLE);
    assertThat(sample).contains("../samples/billing/target/fusion-sample-billing.jar", "http://127.0.0.1:8081/mcp");
    Path config = dir.resolve("gateway.yaml");
    Files.writeString(config, sample
        .replace("../samples/billing/target/fusion-sample-billing.jar", BILLING_JAR.toString())
        .replace("http://127.0.0.1:8081/mcp", conformance.endpoint().toString()));
    return config;
  }

  @Test
  void theJarServesTheSampleConfigsUpstreamsOverStdio() throws Exception {
    afterPackage();
    try (FusionHttpServer conformance = FusionHttp.serve(ConformanceConnector.builder().build(), HttpOptions.port(0))) {
      Path config = sampleConfig(conformance);

      List<String> answers = session(config,
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
              + "\"capabilities\":{},\"clientInfo\":{\"name\":\"jar-test\",\"version\":\"1\"}}}",
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");

      @SuppressWarnings("unchecked")
      Map<String, Object> list = (Map<String, Object>) Json.parse(answers.get(1));
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> tools = (List<Map<String, Object>>) ((Map<String, Object>) list.get("result")).get("tools");
      List<String> names = tools.stream().map(t -> (String) t.get("name")).toList();
      assertThat(names).anyMatch(n -> n.startsWith("billing_")).anyMatch(n -> n.startsWith("conformance_"))
          .contains("billing_billing_get_invoice");
    }
  }

  @Test
  void theJarServesBothUpstreamsOverHttpAndStopsOnSigterm() throws Exception {
    afterPackage();
    try (FusionHttpServer conformance = FusionHttp.serve(ConformanceConnector.builder().build(), HttpOptions.port(0))) {
      Process gateway = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xlog:disable", "-Xlog:all=warning:stderr", "-jar", JAR.toString(), "--config",
          sampleConfig(conformance).toString(), "--http", "0")
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      try {
        List<String> stderr = new CopyOnWriteArrayList<>();
        URI endpoint = URI.create(TypeScriptClientGatewayTest.announced(gateway, stderr));
        assertThat(endpoint.getHost()).isEqualTo("127.0.0.1");
        McpOverHttp client = new McpOverHttp(endpoint);
        client.initialize();

        List<String> names = client.toolNames();
        assertThat(names).anyMatch(n -> n.startsWith("billing_")).anyMatch(n -> n.startsWith("conformance_"))
            .contains("billing_billing_get_invoice", "conformance_test_simple_text");
        Map<String, Object> invoice = client.call("billing_billing_get_invoice", Map.of("id", "INV-0042"));
        assertThat(invoice).as(Json.write(invoice)).doesNotContainEntry("isError", true);
        assertThat(Json.write(invoice)).contains("INV-0042");
        Map<String, Object> simple = client.call("conformance_test_simple_text", Map.of());
        assertThat(simple).as(Json.write(simple)).doesNotContainEntry("isError", true);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> content = (List<Map<String, Object>>) simple.get("content");
        assertThat(content).anyMatch(c -> "text".equals(c.get("type")) && !String.valueOf(c.get("text")).isEmpty());

        Path clients = TypeScriptClientGatewayTest.clients();
        if (clients != null) {
          // The official client on the same running jar; without clients/ installed, the plain client above stands.
          List<String> verdicts = TypeScriptClientGatewayTest.runNode(clients, "http", endpoint.toString());
          verdicts.forEach(v -> System.out.println("[typescript client] " + v));
          TypeScriptClientGatewayTest.assertVerdicts(verdicts, "http");
        }

        List<ProcessHandle> upstreams = gateway.descendants().toList();
        assertThat(upstreams).as("the billing upstream's process").isNotEmpty();
        gateway.destroy(); // SIGTERM
        assertThat(gateway.waitFor(30, TimeUnit.SECONDS)).as("the gateway exits on SIGTERM").isTrue();
        assertThat(gateway.exitValue()).as("the JVM's exit status after SIGTERM (128 + 15)").isEqualTo(143);
        for (ProcessHandle upstream : upstreams) {
          upstream.onExit().get(30, TimeUnit.SECONDS);
          assertThat(upstream.isAlive()).as("upstream process %s ends with the gateway", upstream.pid()).isFalse();
        }
        assertThat(stderr).as("the gateway's stderr").noneMatch(l -> l.contains("Exception"));
      } finally {
        gateway.destroyForcibly();
      }
    }
  }

  /** A minimal Streamable HTTP client: one session, each POST answered as JSON or as an event stream. */
  private static final class McpOverHttp {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI endpoint;
    private String session;
    private int id;

    McpOverHttp(URI endpoint) {
      this.endpoint = endpoint;
    }

    void initialize() throws Exception {
      Map<String, Object> init = request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
          "clientInfo", Map.of("name", "jar-http-test", "version", "1")));
      assertThat(init).containsKey("result");
      assertThat(session).as("the Mcp-Session-Id the gateway assigned").isNotBlank();
      HttpResponse<String> initialized = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      assertThat(initialized.statusCode()).isEqualTo(202);
    }

    @SuppressWarnings("unchecked")
    List<String> toolNames() throws Exception {
      Map<String, Object> result = (Map<String, Object>) request("tools/list", Map.of()).get("result");
      return ((List<Map<String, Object>>) result.get("tools")).stream().map(t -> (String) t.get("name")).toList();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> call(String tool, Map<String, Object> arguments) throws Exception {
      Map<String, Object> answer = request("tools/call", Map.of("name", tool, "arguments", arguments));
      assertThat(answer).as(Json.write(answer)).containsKey("result");
      return (Map<String, Object>) answer.get("result");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> request(String method, Map<String, Object> params) throws Exception {
      HttpResponse<String> response = post(Json.write(Map.of("jsonrpc", "2.0", "id", ++id, "method", method,
          "params", params)));
      assertThat(response.statusCode()).as(method + " answered " + response.body()).isEqualTo(200);
      response.headers().firstValue("Mcp-Session-Id").ifPresent(s -> session = s);
      String body = response.body();
      if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
        // The answer is the event whose data carries this request's id.
        body = body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).trim())
            .filter(d -> d.contains("\"id\":" + id)).findFirst().orElseThrow();
      }
      return (Map<String, Object>) Json.parse(body);
    }

    private HttpResponse<String> post(String json) throws Exception {
      HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
          .header("Content-Type", "application/json")
          .header("Accept", "application/json, text/event-stream")
          .POST(HttpRequest.BodyPublishers.ofString(json));
      if (session != null) {
        request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
      }
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  @Test
  void everyEntryOfTheProjectCarriesTheFixedBuildTimestamp() throws IOException {
    afterPackage();
    try (JarFile jar = new JarFile(JAR.toFile())) {
      // The libraries' entries keep the times of their published jars: fixed by the artifacts.
      List<JarEntry> ours = Collections.list(jar.entries()).stream()
          .filter(e -> e.getName().startsWith("dev/mcpfusion/")).toList();
      assertThat(ours).hasSizeGreaterThan(100)
          .anyMatch(e -> e.getName().startsWith("dev/mcpfusion/core/"))
          .anyMatch(e -> e.getName().startsWith("dev/mcpfusion/gateway/"));
      Instant fixed = Instant.parse(System.getProperty("fusion.outputTimestamp"));
      // Zip times are local time, 2-second grained: within a day of the fixed time, which no build clock is.
      for (JarEntry entry : ours) {
        long seconds = entry.getLastModifiedTime().toInstant().getEpochSecond();
        assertThat(Math.abs(seconds - fixed.getEpochSecond())).as(entry.getName()).isLessThan(86_400);
      }
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo(GatewayMain.class.getName());
    }
  }

  /** Runs the jar on stdio, sends {@code lines}, and answers the responses (lines with an id) in order. */
  private static List<String> session(Path config, String... lines) throws Exception {
    Process gateway = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:disable", "-Xlog:all=warning:stderr", "-jar", JAR.toString(), "--config", config.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    try {
      List<String> answers = new ArrayList<>();
      try (OutputStream in = gateway.getOutputStream();
          BufferedReader out = new BufferedReader(new InputStreamReader(gateway.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line : lines) {
          in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
          in.flush();
          if (line.contains("\"id\"")) {
            String answer = out.readLine();
            assertThat(answer).as("an answer to " + line).isNotNull();
            answers.add(answer);
          }
        }
      }
      assertThat(gateway.waitFor(30, TimeUnit.SECONDS)).as("the gateway exits when stdin closes").isTrue();
      return answers;
    } finally {
      gateway.destroyForcibly();
    }
  }
}
