package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.SpanStatus;
import dev.mcpfusion.samples.billing.fixtures.DocsFeatures;
import dev.mcpfusion.samples.billing.fixtures.GuardedFeatures;
import dev.mcpfusion.samples.billing.fixtures.RecordingTracer;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The sample's span export: off unless asked for, one logged span per request when on; and the
 * spans of prompts, resources and completions, the guarded ones included.
 */
class BillingTracingTest {

  @Test
  void exportIsOffByDefaultAndRejectsUnknownSettings() {
    assertThat(BillingTracing.of(null)).isSameAs(FusionTracer.NOOP);
    assertThat(BillingTracing.of("")).isSameAs(FusionTracer.NOOP);
    assertThatThrownBy(() -> BillingTracing.of("otlp"))
        .hasMessageContaining("FUSION_TRACE='otlp' is not supported");
  }

  @Test
  void loggingExportWritesOneSpanPerToolCallWithoutHiddenData() {
    List<String> logged = new CopyOnWriteArrayList<>();
    Logger logger = Logger.getLogger(LoggingSpanExporter.class.getName());
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        logged.add(String.valueOf(record.getMessage()) + " " + java.util.Arrays.toString(record.getParameters()));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(capture);
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT)
        .tracer(BillingTracing.of("logging")))) {
      tester.call("billing", "get_invoice", Map.of("id", "INV-0042"));
    } finally {
      logger.removeHandler(capture);
    }
    // One span per message: the handshake's two, and the call's.
    List<String> calls = logged.stream().filter(l -> l.contains("tools/call")).toList();
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0)).contains("tools/call billing_get_invoice");
    assertThat(String.join("\n", logged)).doesNotContain("whsec_");
  }

  @Test
  void loggingExportWritesOneSpanPerPromptResourceAndCompletionRequest() {
    List<String> logged = new CopyOnWriteArrayList<>();
    Logger logger = Logger.getLogger(LoggingSpanExporter.class.getName());
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        logged.add(String.valueOf(record.getMessage()) + " " + java.util.Arrays.toString(record.getParameters()));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(capture);
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT)
        .register(new DocsFeatures())
        .tracer(BillingTracing.of("logging")))) {
      tester.getPrompt("greet", Map.of("name", "Ada"));
      tester.readResource("docs://pages/usage/sections/limits");
      tester.completeResource("docs://pages/{page}/sections/{section}", "page", "in");
    } finally {
      logger.removeHandler(capture);
    }
    logged.removeIf(l -> l.contains("initialize"));
    assertThat(logged).hasSize(3);
    assertThat(logged.get(0)).contains("prompts/get greet");
    assertThat(logged.get(1)).contains("resources/read docs://pages/{page}/sections/{section}")
        .contains("docs://pages/usage/sections/limits");
    assertThat(logged.get(2)).contains("completion/complete docs://pages/{page}/sections/{section}");
  }

  @Test
  void featureSpansTellEachOutcomeByItsCode() {
    RecordingTracer tracer = new RecordingTracer();
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT)
        .register(new DocsFeatures())
        .tracer(tracer))) {
      tester.getPrompt("greet", Map.of());
      tester.readResource("docs://pages/missing/sections/a");
      tester.readResource("docs://pages/broken/sections/a");
      tester.readResource("docs://nothing");
      tester.getPrompt("nope", Map.of());
    }
    List<RecordingTracer.Span> spans = tracer.calls();
    assertThat(spans).extracting(s -> s.name).containsExactly("prompts/get greet",
        "resources/read docs://pages/{page}/sections/{section}",
        "resources/read docs://pages/{page}/sections/{section}", "resources/read", "prompts/get nope");
    assertThat(spans).extracting(s -> s.status).containsExactly(SpanStatus.OK, SpanStatus.UNSET,
        SpanStatus.ERROR, SpanStatus.UNSET, SpanStatus.UNSET);
    assertThat(spans).extracting(s -> s.attributes.get("error.type")).containsExactly(null,
        "NOT_FOUND", "INTERNAL_ERROR", "UNKNOWN_RESOURCE", "UNKNOWN_PROMPT");
    assertThat(spans.get(2).exceptions).containsExactly(IllegalStateException.class.getName());
    assertThat(tracer.dump()).doesNotContain("hunter2");
  }

  @Test
  void aBusyOrTimedOutFeatureRequestsSpanSaysSoAndIsSizedAsWritten() throws Exception {
    RecordingTracer tracer = new RecordingTracer();
    GuardedFeatures features = new GuardedFeatures();
    try (FusionTester tester = FusionTester.of(FusionServer.builder("guards", "1")
        .register(features).tracer(tracer))) {
      Thread holder = new Thread(() -> tester.getPrompt("hold", Map.of()));
      holder.start();
      assertThat(features.holding.await(10, TimeUnit.SECONDS)).isTrue();
      McpResponse busy = tester.readResource("guarded://readme");
      features.release.countDown();
      holder.join(10_000);
      McpResponse timedOut = tester.complete("pick", "option", "");

      RecordingTracer.Span busySpan = tracer.spans().stream()
          .filter(s -> s.name.equals("resources/read guarded://readme")).findFirst().orElseThrow();
      assertThat(busySpan.attributes).containsEntry("error.type", "SERVER_BUSY")
          .containsEntry("rpc.response.status_code", "-32003")
          .containsEntry("mcpfusion.error.message", "The server is busy.")
          .containsEntry("mcpfusion.response_size", (long) busy.raw().getBytes(UTF_8).length);
      assertThat(busySpan.status).isEqualTo(SpanStatus.UNSET);
      RecordingTracer.Span timeoutSpan = tracer.spans().stream()
          .filter(s -> s.name.equals("completion/complete pick")).findFirst().orElseThrow();
      assertThat(timeoutSpan.attributes).containsEntry("error.type", "TIMEOUT")
          .containsEntry("rpc.response.status_code", "-32004")
          .containsEntry("mcpfusion.error.message", "The call did not finish within 150 ms.")
          .containsEntry("mcpfusion.response_size", (long) timedOut.raw().getBytes(UTF_8).length);
      assertThat(timeoutSpan.status).isEqualTo(SpanStatus.UNSET);
    }
  }
}
