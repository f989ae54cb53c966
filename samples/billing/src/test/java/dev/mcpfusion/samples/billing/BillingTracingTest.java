package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The sample's span export: off unless asked for, one logged span per call when on. */
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
    assertThat(logged).hasSize(1);
    assertThat(logged.get(0)).contains("tools/call billing_get_invoice").doesNotContain("whsec_");
  }
}
