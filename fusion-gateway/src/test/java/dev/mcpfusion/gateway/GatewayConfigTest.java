package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.gateway.lab.LabMain;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.testing.FusionTester;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The config file: YAML or JSON, every key checked, each mistake named with the fix. */
class GatewayConfigTest {
  @TempDir
  Path dir;

  @Test
  void aYamlFileDeclaresAStdioAndAnHttpUpstream() throws IOException {
    FusionHttpServer http = FusionHttp.serve(LabMain.server(), HttpOptions.port(0));
    try {
      Path file = write("gateway.yaml", "name: front\n"
          + "connectTimeout: 5s\n"
          + "callTimeout: 2m\n"
          + "sessions: {max: 10, idle: 1m}\n"
          + "breaker: {failureRate: 50, window: 4, minimumCalls: 2, openFor: 10s}\n"
          + "upstreams:\n"
          + "  local:\n"
          + "    command: " + Json.write(TestServers.java(TestServers.LAB_MAIN)) + "\n"
          + "  remote:\n"
          + "    url: " + http.endpoint() + "\n"
          + "    headers: {x-tenant-id: t_777}\n");
      try (Gateway gateway = Gateway.builder().config(file).build();
          FusionTester tester = FusionTester.of(gateway.register(FusionServer.builder("g", "1")))) {
        assertThat(gateway.toolNames()).contains("local_lab_echo", "remote_lab_echo");
        assertThat(tester.callTool("local_lab_echo", Map.of("text", "a")).dataText()).isEqualTo("echo: a");
        assertThat(tester.callTool("remote_lab_echo", Map.of("text", "b")).dataText()).isEqualTo("echo: b");
        assertThat(gateway.server().name()).isEqualTo("front");
      }
    } finally {
      http.close();
    }
  }

  @Test
  void aJsonFileIsReadWithTheSameKeys() throws IOException {
    Path file = write("gateway.json", Json.write(Map.of("upstreams",
        Map.of("lab", Map.of("command", TestServers.java(TestServers.LAB_MAIN))))));
    try (Gateway gateway = Gateway.builder().config(file).build()) {
      assertThat(gateway.toolNames()).contains("lab_lab_echo", "lab_lab_sleep");
    }
  }

  @Test
  void anUnknownKeyIsRefusedNamingTheKnownOnes() throws IOException {
    Path file = write("gateway.yaml", "callTimeot: 5s\nupstreams: {lab: {command: [x]}}\n");
    assertThatThrownBy(() -> Gateway.builder().config(file))
        .hasMessage("gateway.yaml: unknown key 'callTimeot'; expected one of [breaker, callTimeout,"
            + " connectTimeout, delegation, name, sessions, upstreams]");
  }

  @Test
  void anUpstreamNeedsACommandOrAUrl() throws IOException {
    Path file = write("gateway.yaml", "upstreams:\n  crm: {headers: {a: b}}\n");
    assertThatThrownBy(() -> Gateway.builder().config(file))
        .hasMessage("gateway.yaml: upstreams.crm: give either command (a program speaking MCP on"
            + " stdio, as a list: [java, -jar, server.jar]) or url (a Streamable HTTP endpoint)");
  }

  @Test
  void aBadDurationNamesTheFormsAccepted() throws IOException {
    Path file = write("gateway.yaml", "connectTimeout: soon\nupstreams: {lab: {command: [x]}}\n");
    assertThatThrownBy(() -> Gateway.builder().config(file))
        .hasMessage("gateway.yaml: connectTimeout: expected a duration such as 500ms, 5s, 2m or 1h"
            + " but was 'soon'");
  }

  @Test
  void anUpstreamNameWithAnUnderscoreIsRefused() throws IOException {
    Path file = write("gateway.yaml", "upstreams: {crm_eu: {url: 'http://127.0.0.1:1/mcp'}}\n");
    assertThatThrownBy(() -> Gateway.builder().config(file))
        .hasMessageStartingWith("gateway.yaml: upstream 'crm_eu': expected a lowercase name")
        .hasMessageContaining("so it cannot contain '_'");
  }

  @Test
  void aDelegationKeyFileGivesTheHandoffTools() throws IOException {
    Files.writeString(dir.resolve("gateway.key"), java.util.Base64.getEncoder()
        .encodeToString(dev.mcpfusion.gateway.lab.LabTools.KEY) + "\n");
    Path file = write("gateway.yaml", "delegation: {keyFile: gateway.key, ttl: 30s}\n"
        + "upstreams:\n  lab:\n    command: " + Json.write(TestServers.java(TestServers.LAB_MAIN)) + "\n");
    try (Gateway gateway = Gateway.builder().config(file).build()) {
      assertThat(gateway.toolNames()).endsWith("gateway_handoff", "gateway_return");
    }
    Files.writeString(dir.resolve("gateway.key"), "c2hvcnQ=");
    assertThatThrownBy(() -> Gateway.builder().config(file))
        .hasMessage("gateway.yaml: delegation: a delegation key needs at least 32 bytes (256 bits)"
            + " but has 5; generate one with: openssl rand -base64 32");
  }

  @Test
  void notYamlIsNamedAsSuch() throws IOException {
    Path file = write("gateway.yaml", "upstreams: [unclosed\n");
    assertThatThrownBy(() -> Gateway.builder().config(file))
        .hasMessageStartingWith("gateway.yaml is not valid YAML: ");
  }

  @Test
  void theSampleConfigInTheRepositoryIsValid() throws IOException {
    Path sample = Path.of("gateway.yaml");
    Gateway.Builder builder = Gateway.builder().config(sample);
    assertThat(builder).isNotNull();
    assertThat(Files.readString(sample)).contains("fusion-sample-billing.jar", "--http");
  }

  private Path write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file;
  }

}
