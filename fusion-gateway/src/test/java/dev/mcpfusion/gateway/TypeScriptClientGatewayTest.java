package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.conformance.ConformanceConnector;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official MCP TypeScript SDK client ({@code @modelcontextprotocol/client}, in
 * {@code clients/}) through the runnable gateway ({@link GatewayMain} with a config file): it lists
 * the tools of both upstreams (the billing sample over stdio, the conformance sample over
 * Streamable HTTP) and calls one of each, with the gateway on stdio and on HTTP. The script is
 * {@code clients/test/gateway-client.mjs}.
 *
 * <p>Needs {@code clients/node_modules}: named by {@code -Dfusion.clients=/path/to/clients}, else
 * {@code ../clients} when installed; skipped without it. {@code .ci/run} installs the clients,
 * names them, and fails if this test did not run and pass.
 */
class TypeScriptClientGatewayTest {
  private static final Pattern ENDPOINT = Pattern.compile("listening on (http://\\S+)");

  @TempDir
  Path dir;
  private FusionHttpServer conformance;
  private Path config;

  @BeforeEach
  void upstreams() throws IOException {
    conformance = FusionHttp.serve(ConformanceConnector.builder().build(), HttpOptions.port(0));
    config = dir.resolve("gateway.yaml");
    Files.writeString(config, "upstreams:\n"
        + "  billing:\n"
        + "    command: " + Json.write(TestServers.java(TestServers.BILLING_MAIN)) + "\n"
        + "  conformance:\n"
        + "    url: " + conformance.endpoint() + "\n");
  }

  @AfterEach
  void stop() {
    conformance.close();
  }

  @Test
  void theOfficialClientListsAndCallsBothUpstreamsThroughTheGatewayOnStdio() throws Exception {
    Path clients = clients();
    Assumptions.assumeTrue(clients != null, "no installed clients/ (npm install there)");
    List<String> lines = runNode(clients, "stdio", Json.write(gatewayCommand()));
    assertVerdicts(lines, "stdio");
  }

  @Test
  void theOfficialClientListsAndCallsBothUpstreamsThroughTheGatewayOnHttp() throws Exception {
    Path clients = clients();
    Assumptions.assumeTrue(clients != null, "no installed clients/ (npm install there)");
    List<String> command = gatewayCommand();
    command.addAll(List.of("--http", "0"));
    Process gateway = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      String endpoint = announced(gateway, new ArrayList<>());
      List<String> lines = runNode(clients, "http", endpoint);
      assertVerdicts(lines, "http");
    } finally {
      gateway.destroy();
      if (!gateway.waitFor(10, TimeUnit.SECONDS)) {
        gateway.destroyForcibly();
      }
    }
  }

  static void assertVerdicts(List<String> lines, String mode) {
    assertThat(lines).as("the script's verdicts").noneMatch(l -> l.startsWith("fail "));
    assertThat(lines).anyMatch(l -> l.startsWith("ok " + mode + "-list tools="));
    assertThat(lines).anyMatch(l -> l.startsWith("ok " + mode + "-call-stdio-upstream "));
    assertThat(lines).anyMatch(l -> l.startsWith("ok " + mode + "-call-http-upstream "));
    assertThat(lines).anyMatch(l -> l.startsWith("ok " + mode + "-upstream-error "));
  }

  private List<String> gatewayCommand() {
    return new ArrayList<>(TestServers.java(GatewayMain.class.getName(), "--config",
        config.toString()));
  }

  /** The endpoint the gateway prints on stderr; its stderr lines are passed on and kept in {@code lines}. */
  static String announced(Process gateway, List<String> lines) throws Exception {
    CompletableFuture<String> endpoint = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader err = new BufferedReader(
          new InputStreamReader(gateway.getErrorStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = err.readLine()) != null) {
          System.err.println("[gateway] " + line);
          lines.add(line);
          Matcher m = ENDPOINT.matcher(line);
          if (m.find()) {
            endpoint.complete(m.group(1));
          }
        }
        endpoint.completeExceptionally(new AssertionError("the gateway exited without an endpoint"));
      } catch (IOException e) {
        endpoint.completeExceptionally(e);
      }
    });
    reader.setDaemon(true);
    reader.start();
    return endpoint.get(120, TimeUnit.SECONDS);
  }

  static List<String> runNode(Path clients, String mode, String target)
      throws IOException, InterruptedException {
    Path node = clients.resolve("node_modules/.bin/node");
    Process process = new ProcessBuilder(
        Files.isExecutable(node) ? node.toString() : "node",
        clients.resolve("test/gateway-client.mjs").toString(), mode, target)
        .directory(clients.toFile())
        .redirectErrorStream(true)
        .start();
    byte[] out;
    try {
      if (!process.waitFor(180, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the client script did not finish in 180 s");
      }
      out = process.getInputStream().readAllBytes();
    } finally {
      process.destroyForcibly();
    }
    String output = new String(out, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("exit status of the client script; it said:%n%s", output)
        .isZero();
    return output.lines().toList();
  }

  static Path clients() {
    String named = System.getProperty("fusion.clients", "");
    Path dir = named.isEmpty() ? Path.of("..", "clients") : Path.of(named);
    Path sdk = dir.resolve("node_modules/@modelcontextprotocol/client/package.json");
    if (Files.exists(sdk)) {
      return dir.toAbsolutePath().normalize();
    }
    if (!named.isEmpty()) {
      throw new AssertionError("-Dfusion.clients=" + named + " has no installed SDK client (" + sdk
          + "): run npm install there");
    }
    return null;
  }
}
