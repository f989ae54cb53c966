package dev.mcpfusion.benchmarks.pipeline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The guards' price per call, measured so that neither side is favoured by when it ran: one JMH
 * fork of each side in turn ({@code plain}, {@code redacted}, {@code limited}, {@code both}, then
 * again), each its own JVM, for {@code rounds} rounds. A sub-microsecond call swings by tens of
 * per cent between forks (how the JIT compiled it), and a shared machine drifts over minutes:
 * taking all forks of one side before the other lets either decide the ratio. A one-second
 * iteration now and then is several times slower than the rest (a pause of the shared machine), so
 * the summary is per side the median of all its iterations (and the quartiles), and its ratio to
 * plain's.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar \
 *     dev.mcpfusion.benchmarks.pipeline.GuardsAlternating [rounds] [GetInvoice|ListInvoices]</pre>
 */
public final class GuardsAlternating {
  private static final int ITERATIONS = 5;

  private GuardsAlternating() {}

  public static void main(String[] args) throws RunnerException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    String tool = args.length > 1 ? args[1] : "GetInvoice";
    Map<String, String> sides = new LinkedHashMap<>();
    sides.put("plain", RedactionBenchmark.class.getName() + ".plain" + tool);
    sides.put("redacted", RedactionBenchmark.class.getName() + ".redacted" + tool);
    sides.put("limited", LimitsBenchmark.class.getName() + ".limited" + tool);
    sides.put("both", GuardsBenchmark.class.getName() + ".both" + tool);
    // Per side, every measured iteration's ns/call, in the order run.
    Map<String, List<Double>> forks = new LinkedHashMap<>();
    sides.keySet().forEach(side -> forks.put(side, new ArrayList<>()));
    System.out.printf("%s: %d rounds, one fork per side in turn; load average %s%n", tool, rounds,
        SideBySide.loadAverage());
    for (int r = 0; r < rounds; r++) {
      // Rotate the order, so that no side always runs right after the same other one.
      List<String> order = new ArrayList<>(sides.keySet());
      java.util.Collections.rotate(order, r);
      for (String side : order) {
        Options options = new OptionsBuilder()
            .include("^" + java.util.regex.Pattern.quote(sides.get(side)) + "$")
            .forks(1)
            .measurementIterations(ITERATIONS).measurementTime(TimeValue.seconds(1))
            .timeUnit(TimeUnit.NANOSECONDS)
            .verbosity(VerboseMode.SILENT)
            .build();
        for (RunResult result : new Runner(options).run()) {
          for (BenchmarkResult fork : result.getBenchmarkResults()) {
            for (IterationResult iteration : fork.getIterationResults()) {
              forks.get(side).add(iteration.getPrimaryResult().getScore());
            }
          }
        }
      }
      System.out.printf("round %d (median of the fork's iterations):", r + 1);
      forks.forEach((side, values) -> System.out.printf(" %s %.0f", side,
          median(values.subList(values.size() - ITERATIONS, values.size()))));
      System.out.println(" ns/call");
    }
    double plain = median(forks.get("plain"));
    System.out.printf("%-9s %10s %8s %10s %10s%n", "side", "median ns", "ratio", "p25 ns", "p75 ns");
    for (Map.Entry<String, List<Double>> e : forks.entrySet()) {
      double m = median(e.getValue());
      System.out.printf("%-9s %10.1f %7.3fx %10.1f %10.1f%n", e.getKey(), m, m / plain,
          quantile(e.getValue(), 0.25), quantile(e.getValue(), 0.75));
    }
  }

  private static double median(List<Double> values) {
    return quantile(values, 0.5);
  }

  private static double quantile(List<Double> values, double q) {
    return SideBySide.quantile(values.stream().mapToDouble(Double::doubleValue).toArray(), q);
  }
}
