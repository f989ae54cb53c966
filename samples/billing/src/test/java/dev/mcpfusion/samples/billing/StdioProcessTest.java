package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample as a client runs it: a separate JVM speaking newline-delimited JSON-RPC on stdio.
 * stdout carries only protocol lines; unreadable input is answered and the session goes on.
 */
class StdioProcessTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void servesAClientAndSurvivesMalformedLines() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path stderr = Files.createTempFile("billing-stderr", ".log");
    Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        BillingMain.class.getName())
        .redirectError(stderr.toFile())
        .start();
    List<String> input = List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"stdio-test\",\"version\":\"1\"}}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "this is not json",
        "[]",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"billing_get_invoice\","
            + "\"arguments\":{\"id\":\"INV-0042\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"billing_refund_all\","
            + "\"arguments\":{}}}");
    try (OutputStream stdin = process.getOutputStream()) {
      for (String line : input) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
      }
    }
    List<Map<String, Object>> replies = new ArrayList<>();
    try (BufferedReader stdout = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = stdout.readLine()) != null) {
        @SuppressWarnings("unchecked")
        Map<String, Object> reply = JSON.readValue(line, Map.class);
        replies.add(reply);
      }
    }
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("exit code; stderr:%n%s", Files.readString(stderr)).isZero();

    assertThat(replies).hasSize(6);
    assertThat(byId(replies, 1)).containsKey("result");
    assertThat(errorCodes(replies)).containsExactlyInAnyOrder(-32700, -32600, -32602);
    assertThat(String.valueOf(byId(replies, 2).get("result"))).contains("billing_void_invoice");
    String call = JSON.writeValueAsString(byId(replies, 3));
    assertThat(call).contains("INV-0042").contains("domain_rules").doesNotContain("whsec_");
    String unknown = JSON.writeValueAsString(byId(replies, 4));
    assertThat(unknown).contains("-32602").contains("UNKNOWN_TOOL");
    for (Map<String, Object> reply : replies) {
      String text = JSON.writeValueAsString(reply);
      assertThat(text).doesNotContain("Exception").doesNotContain("at java.").doesNotContain("at dev.");
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void handlerOutputOnSystemOutNeverReachesTheProtocolChannel() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path stderr = Files.createTempFile("noisy-stderr", ".log");
    Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        dev.mcpfusion.samples.billing.fixtures.NoisyMain.class.getName())
        .redirectError(stderr.toFile())
        .start();
    try (OutputStream stdin = process.getOutputStream()) {
      for (String line : List.of(
          "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
              + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"conc_noisy\",\"arguments\":{}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"conc_echo\",\"arguments\":{\"n\":3}}}")) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
      }
    }
    List<String> lines = new ArrayList<>();
    try (BufferedReader stdout = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = stdout.readLine()) != null) {
        lines.add(line);
      }
    }
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(lines).as("stdout lines").hasSize(3);
    assertThat(lines).noneMatch(l -> l.equals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"))
        .noneMatch(l -> l.contains("partial line"));
    assertThat(lines.get(0)).contains("\"id\":\"init\"");
    assertThat(String.join("\n", lines)).contains("quiet").contains("\"id\":3");
    assertThat(Files.readString(stderr)).contains("a partial line without newline");
  }

  private static Map<String, Object> byId(List<Map<String, Object>> replies, int id) {
    return replies.stream().filter(r -> Integer.valueOf(id).equals(r.get("id"))).findFirst()
        .orElseThrow(() -> new AssertionError("no reply with id " + id + " in " + replies));
  }

  @SuppressWarnings("unchecked")
  private static List<Integer> errorCodes(List<Map<String, Object>> replies) {
    List<Integer> codes = new ArrayList<>();
    for (Map<String, Object> reply : replies) {
      Object error = reply.get("error");
      if (error instanceof Map<?, ?> e) {
        codes.add((Integer) ((Map<String, Object>) e).get("code"));
      }
    }
    return codes;
  }
}
