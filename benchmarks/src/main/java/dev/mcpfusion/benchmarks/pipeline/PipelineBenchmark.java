package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Benchmark 1: the in-RAM cost of one {@code tools/call} through the whole pipeline
 * ({@code FusionServer.edge().call} + {@code Results.toMcp}: resolve, decode + validate, context provider, {@code TenantGuard}
 * middleware, handler, presenter with rules and suggestions, state sync, conversion to the SDK's
 * {@code CallToolResult}) against {@link PlainSdkBilling}, the same useful work written by hand on
 * the SDK types. Ratio = {@code fusion*} / {@code baseline*}; run with {@code -prof gc} for bytes/op.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
// The whole call needs about six seconds of calls here before the JIT has compiled it for good.
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 5, time = 1)
public class PipelineBenchmark {
  private FusionServer server;
  private PlainSdkBilling baseline;
  private RequestContext context;
  private Map<String, Object> getArgs;
  private Map<String, Object> listArgs;
  private McpSchema.CallToolRequest getRequest;
  private McpSchema.CallToolRequest listRequest;

  @Setup
  public void setUp() {
    InvoiceStore store = InvoiceStore.sample();
    server = BillingConnector.builder(store, Exposition.FLAT).build();
    baseline = new PlainSdkBilling(store, McpJsonDefaults.getMapper());
    context = RequestContext.empty();
    getArgs = Map.of("id", "INV-0042");
    listArgs = Map.of();
    getRequest = new McpSchema.CallToolRequest("billing_get_invoice", getArgs);
    listRequest = new McpSchema.CallToolRequest("billing_list_invoices", listArgs);
    // Both sides must do the same useful work: same data text, same structured content.
    sameData(fusionGetInvoice(), baselineGetInvoice());
    sameData(fusionListInvoices(), baselineListInvoices());
    McpSchema.CallToolResult fusion = fusionGetInvoice();
    McpSchema.CallToolResult full = baselineGetInvoiceWithRules();
    if (!fusion.content().equals(full.content()) || !Objects.equals(fusion.meta(), full.meta())) {
      throw new IllegalStateException("envelopes differ:\n" + fusion + "\n" + full);
    }
  }

  @Benchmark
  public McpSchema.CallToolResult fusionGetInvoice() {
    return dev.mcpfusion.core.server.Results.toMcp(server.edge().call("billing_get_invoice", getArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult baselineGetInvoice() {
    return baseline.getInvoice(null, getRequest);
  }

  /** Not part of the goal: the baseline answering the framework's full envelope for this invoice. */
  @Benchmark
  public McpSchema.CallToolResult baselineGetInvoiceWithRules() {
    return baseline.getInvoiceWithRules(null, getRequest);
  }

  @Benchmark
  public McpSchema.CallToolResult fusionListInvoices() {
    return dev.mcpfusion.core.server.Results.toMcp(server.edge().call("billing_list_invoices", listArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult baselineListInvoices() {
    return baseline.listInvoices(null, listRequest);
  }

  private static void sameData(McpSchema.CallToolResult fusion, McpSchema.CallToolResult plain) {
    if (Boolean.TRUE.equals(fusion.isError()) || Boolean.TRUE.equals(plain.isError())) {
      throw new IllegalStateException("a side failed: " + fusion + " / " + plain);
    }
    String fusionData = ((McpSchema.TextContent) fusion.content().get(0)).text();
    String plainData = ((McpSchema.TextContent) plain.content().get(0)).text();
    if (!fusionData.equals(plainData)) {
      throw new IllegalStateException("data differs:\n" + fusionData + "\n" + plainData);
    }
    if (!Objects.equals(normalize(fusion.structuredContent()), normalize(plain.structuredContent()))) {
      throw new IllegalStateException("structuredContent differs:\n" + fusion.structuredContent()
          + "\n" + plain.structuredContent());
    }
  }

  // Numbers compare by value: the two sides may box totals as Long or Integer.
  private static Object normalize(Object value) {
    if (value instanceof Map<?, ?> map) {
      java.util.Map<String, Object> out = new java.util.TreeMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), normalize(v)));
      return out;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(PipelineBenchmark::normalize).toList();
    }
    if (value instanceof Number n) {
      return n.longValue();
    }
    return value;
  }
}
