package dev.mcpfusion.benchmarks;

import dev.mcpfusion.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a JMH JSON result file ({@code -rf json -rff results.json}) and prints, for each pair of
 * benchmarks measured in that run, both scores (mean ± 99.9% error, median of the iterations), the
 * ratio of the means with the range the two confidence intervals allow, and the goal with MET /
 * MISSED. Allocation ratios appear when the run used {@code -prof gc}.
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.Ratios results.json</pre>
 */
public final class Ratios {
  private Ratios() {}

  /** One side-by-side comparison: {@code subject / baseline}, and the goal on that ratio. */
  private record Pair(String label, String subject, String baseline, String metric,
      boolean atMost, double goal) {}

  private static final String P = "dev.mcpfusion.benchmarks.";
  private static final String ALLOC = "gc.alloc.rate.norm";

  private static final List<Pair> PAIRS = List.of(
      new Pair("1. get_invoice, time/call", P + "pipeline.PipelineBenchmark.fusionGetInvoice",
          P + "pipeline.PipelineBenchmark.baselineGetInvoice", null, true, 1.3),
      new Pair("1. get_invoice, bytes/call", P + "pipeline.PipelineBenchmark.fusionGetInvoice",
          P + "pipeline.PipelineBenchmark.baselineGetInvoice", ALLOC, true, 1.5),
      new Pair("1b. get_invoice vs a baseline sending the same rules block and _meta, time/call",
          P + "pipeline.PipelineBenchmark.fusionGetInvoice",
          P + "pipeline.PipelineBenchmark.baselineGetInvoiceWithRules", null, true, Double.NaN),
      new Pair("1b. get_invoice vs a baseline sending the same rules block and _meta, bytes/call",
          P + "pipeline.PipelineBenchmark.fusionGetInvoice",
          P + "pipeline.PipelineBenchmark.baselineGetInvoiceWithRules", ALLOC, true, Double.NaN),
      new Pair("1. list_invoices (50 of 1,000), time/call", P + "pipeline.PipelineBenchmark.fusionListInvoices",
          P + "pipeline.PipelineBenchmark.baselineListInvoices", null, true, Double.NaN),
      new Pair("1. list_invoices (50 of 1,000), bytes/call", P + "pipeline.PipelineBenchmark.fusionListInvoices",
          P + "pipeline.PipelineBenchmark.baselineListInvoices", ALLOC, true, Double.NaN),
      new Pair("2. presenter vs Jackson, throughput", P + "presenter.PresenterBenchmark.generatedPresenter",
          P + "presenter.PresenterBenchmark.jacksonDto", null, false, 1.0),
      new Pair("2b. hand-written direct writer (models a generated one) vs Jackson, throughput",
          P + "presenter.PresenterBenchmark.directWriter",
          P + "presenter.PresenterBenchmark.jacksonDto", null, false, Double.NaN),
      new Pair("2c. generated tree + Json.write (the path before the direct writer) vs Jackson, throughput",
          P + "presenter.PresenterBenchmark.generatedTree",
          P + "presenter.PresenterBenchmark.jacksonDto", null, false, Double.NaN),
      new Pair("2. presenter vs Jackson, bytes/op", P + "presenter.PresenterBenchmark.generatedPresenter",
          P + "presenter.PresenterBenchmark.jacksonDto", ALLOC, true, Double.NaN),
      new Pair("3. Stream 1M vs List 100 (limit 50), time/call", P + "truncation.TruncationBenchmark.stream1M",
          P + "truncation.TruncationBenchmark.list100", null, true, 1.5),
      new Pair("3. Stream 1M vs List 100 (limit 50), bytes/call", P + "truncation.TruncationBenchmark.stream1M",
          P + "truncation.TruncationBenchmark.list100", ALLOC, true, Double.NaN));

  /** A score with its 99.9% error and the median of the measurement iterations. */
  private record Score(double mean, double error, double median, String unit) {
    double low() {
      // JMH's error can exceed the score on a noisy machine: a time cannot be below zero.
      return Double.isNaN(error) ? mean : Math.max(0, mean - error);
    }

    double high() {
      return Double.isNaN(error) ? mean : mean + error;
    }

    @Override
    public String toString() {
      String median = Double.isNaN(this.median) ? "" : String.format(Locale.ROOT, " (median %s)", num(this.median));
      return String.format(Locale.ROOT, "%s ± %s %s%s", num(mean), Double.isNaN(error) ? "n/a" : num(error), unit, median);
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("Usage: java -cp benchmarks.jar dev.mcpfusion.benchmarks.Ratios results.json");
      System.exit(2);
    }
    Object parsed = Json.parse(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
    Map<String, Map<?, ?>> byName = new LinkedHashMap<>();
    for (Object entry : (List<?>) parsed) {
      Map<?, ?> result = (Map<?, ?>) entry;
      byName.put((String) result.get("benchmark"), result);
    }
    System.out.println("| comparison | subject | baseline | ratio of medians | ratio of means | ratio range (99.9% CIs) | goal | verdict (on medians) |");
    System.out.println("|---|---|---|---:|---:|---|---|---|");
    for (Pair pair : PAIRS) {
      Score subject = score(byName.get(pair.subject()), pair.metric());
      Score baseline = score(byName.get(pair.baseline()), pair.metric());
      if (subject == null || baseline == null) {
        continue;
      }
      double ratio = subject.mean() / baseline.mean();
      double medianRatio = Double.isNaN(subject.median()) || Double.isNaN(baseline.median())
          ? ratio : subject.median() / baseline.median();
      double low = subject.low() / baseline.high();
      double high = baseline.low() == 0 ? Double.POSITIVE_INFINITY : subject.high() / baseline.low();
      String goal = Double.isNaN(pair.goal()) ? "-"
          : (pair.atMost() ? "≤ " : "≥ ") + num(pair.goal()) + "×";
      String verdict = "-";
      if (!Double.isNaN(pair.goal())) {
        boolean met = pair.atMost() ? medianRatio <= pair.goal() : medianRatio >= pair.goal();
        boolean straddles = low <= pair.goal() && pair.goal() <= high;
        verdict = (met ? "MET" : "MISSED") + (straddles ? " (CI range straddles the goal)" : "");
      }
      System.out.printf(Locale.ROOT, "| %s | %s: %s | %s: %s | %s× | %s× | %s× … %s× | %s | %s |%n",
          pair.label(), shortName(pair.subject()), subject, shortName(pair.baseline()), baseline,
          num(medianRatio), num(ratio), num(low), Double.isInfinite(high) ? "∞" : num(high), goal,
          verdict);
    }
  }

  private static Score score(Map<?, ?> result, String metric) {
    if (result == null) {
      return null;
    }
    Map<?, ?> m;
    if (metric == null) {
      m = (Map<?, ?>) result.get("primaryMetric");
    } else {
      m = null;
      Map<?, ?> secondary = (Map<?, ?>) result.get("secondaryMetrics");
      if (secondary != null) {
        for (Map.Entry<?, ?> e : secondary.entrySet()) {
          // JMH up to 1.36 prefixes profiler metrics with a middle dot.
          if (String.valueOf(e.getKey()).replace("\u00b7", "").equals(metric)) {
            m = (Map<?, ?>) e.getValue();
          }
        }
      }
      if (m == null) {
        return null;
      }
    }
    Map<?, ?> percentiles = (Map<?, ?>) m.get("scorePercentiles");
    double median = percentiles == null ? Double.NaN : number(percentiles.get("50.0"));
    return new Score(number(m.get("score")), number(m.get("scoreError")), median,
        String.valueOf(m.get("scoreUnit")));
  }

  private static double number(Object value) {
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    return value == null ? Double.NaN : Double.parseDouble(String.valueOf(value));
  }

  private static String shortName(String benchmark) {
    return benchmark.substring(benchmark.lastIndexOf('.') + 1);
  }

  private static String num(double v) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    double abs = Math.abs(v);
    String pattern = abs >= 1000 ? "%.0f" : abs >= 100 ? "%.1f" : abs >= 1 ? "%.3f" : "%.4f";
    return String.format(Locale.ROOT, pattern, v);
  }
}
