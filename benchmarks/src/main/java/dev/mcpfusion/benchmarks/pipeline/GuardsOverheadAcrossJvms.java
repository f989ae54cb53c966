package dev.mcpfusion.benchmarks.pipeline;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link GuardsOverhead} in several JVMs, one after another, and the spread of its result: per
 * side, each JVM's median ratio to plain, sorted, their median, and how many JVMs read at most the
 * goal of 1.15x.
 *
 * <p>Why several JVMs: each JVM settles on its own compiled code for the whole call (plain runs at
 * 220–420 ns per call from one JVM to the next, on this project's 2-core machines), and the guards'
 * ratio moves with it by a few hundredths. One JVM cannot tell whether the goal is met; the median
 * over several can, and the range says how far a single JVM may stray.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar \
 *     dev.mcpfusion.benchmarks.pipeline.GuardsOverheadAcrossJvms [jvms] [rounds] [batch] [warmup seconds] [GetInvoice|ListInvoices]</pre>
 */
public final class GuardsOverheadAcrossJvms {
  private static final double GOAL = 1.15;

  private GuardsOverheadAcrossJvms() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    int jvms = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    List<String> passOn = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      passOn.add(args[i]);
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    Map<String, List<Double>> bySide = new LinkedHashMap<>();
    for (int j = 1; j <= jvms; j++) {
      List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
          GuardsOverhead.class.getName()));
      command.addAll(passOn);
      Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
      String ratios = null;
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (line.startsWith(GuardsOverhead.RATIOS)) {
            ratios = line;
          }
        }
      }
      int exit = child.waitFor();
      if (exit != 0 || ratios == null) {
        throw new IllegalStateException("JVM " + j + " exited " + exit + " without its ratios");
      }
      System.out.printf("JVM %d: %s%n", j, ratios.substring(GuardsOverhead.RATIOS.length()).trim());
      for (String pair : ratios.substring(GuardsOverhead.RATIOS.length()).trim().split(" ")) {
        String[] kv = pair.split("=");
        bySide.computeIfAbsent(kv[0], k -> new ArrayList<>()).add(Double.parseDouble(kv[1]));
      }
    }
    System.out.printf("%-9s %8s %8s %8s   %s%n", "side", "median", "min", "max", "JVMs at most " + GOAL + "x");
    bySide.forEach((side, ratios) -> {
      double[] values = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      long within = ratios.stream().filter(r -> r <= GOAL).count();
      System.out.printf(Locale.ROOT, "%-9s %7.3fx %7.3fx %7.3fx   %d of %d%n", side,
          SideBySide.quantile(values, 0.5), values[0], values[values.length - 1], within, values.length);
    });
  }
}
