package dev.mcpfusion.benchmarks.truncation;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
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
 * Benchmark 3: truncation costs the limit, not the size. A full pipeline call whose handler
 * returns a {@code Stream} of 1,000,000 rows against one returning a {@code List} of 100 rows,
 * both cut to 50 by the presenter. Ratio = {@code stream1M} / {@code list100} time per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(2)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class TruncationBenchmark {
  private FusionServer server;
  private RequestContext context;

  @Setup
  public void setUp() {
    server = FusionServer.builder("rows", "1.0.0").register(new RowTools()).build();
    context = RequestContext.empty();
    check(stream1M(), "more");
    check(list100(), "hidden");
  }

  @Benchmark
  public McpSchema.CallToolResult stream1M() {
    return dev.mcpfusion.core.server.Results.toMcp(server.edge().call("rows_million_rows", Map.of(), context));
  }

  @Benchmark
  public McpSchema.CallToolResult list100() {
    return dev.mcpfusion.core.server.Results.toMcp(server.edge().call("rows_hundred_rows", Map.of(), context));
  }

  private static void check(McpSchema.CallToolResult result, String truncationKey) {
    if (Boolean.TRUE.equals(result.isError())
        || !(result.structuredContent() instanceof Map<?, ?> structured)
        || !(structured.get("items") instanceof List<?> items) || items.size() != 50
        || !(structured.get("truncated") instanceof Map<?, ?> truncated)
        || !truncated.containsKey(truncationKey)) {
      throw new IllegalStateException("expected 50 shown items, truncated by '" + truncationKey
          + "': " + result);
    }
  }
}
