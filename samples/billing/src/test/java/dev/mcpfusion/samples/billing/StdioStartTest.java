package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The start-up contract of the stdio path (BENCHMARKS §5): a session that initializes and lists
 * the tools loads no class of what it does not use yet — the SDK's servers and Reactor (the edge
 * answers the 2025 lifecycle), Hibernate Validator, the HTTP transport and Jetty, OpenTelemetry,
 * Redis. Checked on the JVM's own class-load log of
 * a separate process, so no other test can have loaded them first; no timing is asserted.
 */
class StdioStartTest {
  private static final Pattern LOADED = Pattern.compile("\\[class,load\\] (\\S+) source:");

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void listingTheToolsLoadsNothingItDoesNotUse() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path classLog = Files.createTempFile("billing-classes", ".log");
    Path stderr = Files.createTempFile("billing-stderr", ".log");
    Process process = new ProcessBuilder(java, "-Xlog:class+load=info:file=" + classLog,
        "-cp", System.getProperty("java.class.path"), BillingMain.class.getName())
        .redirectError(stderr.toFile())
        .start();
    try (OutputStream stdin = process.getOutputStream()) {
      for (String line : List.of(
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
              + "\"capabilities\":{},\"clientInfo\":{\"name\":\"start-test\",\"version\":\"1\"}}}",
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
      }
    }
    List<String> replies = new ArrayList<>();
    try (BufferedReader stdout = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = stdout.readLine()) != null) {
        replies.add(line);
      }
    }
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("exit code; stderr:%n%s", Files.readString(stderr)).isZero();
    assertThat(replies).hasSize(2);
    assertThat(replies.get(1)).contains("\"id\":2").contains("billing_get_invoice");

    List<String> classes = new ArrayList<>();
    for (String line : Files.readAllLines(classLog)) {
      Matcher m = LOADED.matcher(line);
      if (m.find()) {
        classes.add(m.group(1));
      }
    }
    // The session really ran (and the log is the one we think): the edge's classic era answered.
    assertThat(classes).contains("dev.mcpfusion.core.FusionServer",
        "dev.mcpfusion.core.edge.ClassicEra");
    assertThat(classes)
        .noneMatch(c -> c.startsWith("io.modelcontextprotocol.server.") || c.startsWith("reactor."))
        .noneMatch(c -> c.startsWith("org.hibernate.validator.") || c.startsWith("jakarta.validation."))
        .noneMatch(c -> c.startsWith("jakarta.el.") || c.startsWith("org.glassfish.expressly."))
        .noneMatch(c -> c.equals("io.modelcontextprotocol.modern.server.McpServer")
            || c.equals("dev.mcpfusion.core.edge.FusionToolRepository"))
        .noneMatch(c -> c.startsWith("dev.mcpfusion.http.") || c.startsWith("org.eclipse.jetty.")
            || c.startsWith("jakarta.servlet."))
        .noneMatch(c -> c.startsWith("io.opentelemetry.") || c.startsWith("dev.mcpfusion.otel."))
        .noneMatch(c -> c.startsWith("dev.mcpfusion.redis.") || c.startsWith("io.lettuce.")
            || c.equals("dev.mcpfusion.samples.billing.BillingFleet"));
    Files.deleteIfExists(classLog);
    Files.deleteIfExists(stderr);
  }
}
