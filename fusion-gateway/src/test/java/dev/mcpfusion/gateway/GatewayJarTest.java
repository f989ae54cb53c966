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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable gateway as a user runs it: {@code java -jar fusion-gateway.jar --config gateway.yaml}
 * with the module's sample config (its billing upstream the billing sample's jar, its conformance
 * upstream moved to an ephemeral port), listing the tools of both upstreams over stdio. The jar is
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

  @Test
  void theJarServesTheSampleConfigsUpstreamsOverStdio() throws Exception {
    afterPackage();
    assertThat(BILLING_JAR).as("the billing sample's jar, which the sample config starts (package samples/billing)")
        .isRegularFile();
    try (FusionHttpServer conformance = FusionHttp.serve(ConformanceConnector.builder().build(), HttpOptions.port(0))) {
      String sample = Files.readString(SAMPLE);
      assertThat(sample).contains("../samples/billing/target/fusion-sample-billing.jar", "http://127.0.0.1:8081/mcp");
      Path config = dir.resolve("gateway.yaml");
      Files.writeString(config, sample
          .replace("../samples/billing/target/fusion-sample-billing.jar", BILLING_JAR.toString())
          .replace("http://127.0.0.1:8081/mcp", conformance.endpoint().toString()));

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
