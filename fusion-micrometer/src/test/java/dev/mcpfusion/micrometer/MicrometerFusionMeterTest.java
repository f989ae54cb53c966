package dev.mcpfusion.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.testing.FusionTester;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The metrics as Prometheus shows them through Micrometer, with no OpenTelemetry at all. */
class MicrometerFusionMeterTest {
  @Test
  void prometheusShowsBothDurationsWithTheAdvisedBucketsAndBoundedLabels() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    FusionTester tester = FusionTester.of(FusionServer.builder("words", "1.0.0")
        .register(new Counter())
        .meter(MicrometerFusionMeter.of(registry)));
    tester.call("counter", "words", Map.of("text", "one two"));
    tester.call("counter", "words", Map.of("text", ""));
    tester.call("counter", "slow", Map.of());
    tester.callTool("invented_" + System.nanoTime(), Map.of());
    tester.close();

    String text = registry.scrape();

    assertThat(text).contains("# TYPE mcp_server_operation_duration_seconds histogram");
    assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{[^}]*"
        + "error_type=\"\"[^}]*gen_ai_tool_name=\"counter_words\"[^}]*mcp_method_name=\"tools/call\"");
    assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{[^}]*"
        + "error_type=\"VALIDATION_ERROR\"[^}]*gen_ai_tool_name=\"counter_words\"");
    assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{[^}]*"
        + "error_type=\"TIMEOUT\"[^}]*gen_ai_tool_name=\"counter_slow\"");
    // The advised boundaries, in seconds.
    assertThat(text).contains("le=\"0.01\"").contains("le=\"300.0\"");
    // An invented tool name is never a label value.
    assertThat(text).contains("gen_ai_tool_name=\"_OTHER\"").doesNotContain("invented_");
    assertThat(text).containsPattern("mcpfusion_calls_timed_out_total\\{[^}]*mcpfusion_target=\"counter_slow\"");
    assertThat(text).contains("# TYPE mcp_server_session_duration_seconds histogram");
    assertThat(text).containsPattern("mcp_server_session_duration_seconds_count\\{[^}]*\\} 1");
    // No id is ever a label.
    assertThat(text).doesNotContain("mcp_session_id").doesNotContain("jsonrpc_request_id");
  }
}
