package dev.mcpfusion.benchmarks.wire;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Benchmark 4, over the wire: the billing sample ({@code BillingMain}, the framework) against
 * {@link PlainSdkWireServer} (hand-written handlers on the plain SDK), each in its own JVM started
 * with the same flags from the same jar, driven by the same load generator in this JVM on loopback.
 *
 * <pre>
 * java -cp benchmarks.jar dev.mcpfusion.benchmarks.wire.WireBenchmark [quick|full]
 *     [--warmup S] [--measure S] [--clients 1,16] [--jvm "-Xms512m -Xmx512m"] [--jar benchmarks.jar]
 *     [--transports streamable,stateless,stdio] [--jfr DIR] [--fusion-main CLASS]
 * </pre>
 *
 * <p>Cells: 2025 Streamable HTTP (one session per client) and stateless 2026-07-28 HTTP, each at 1
 * and 16 concurrent closed-loop clients ({@link HttpConnection}: one keep-alive socket each), plus
 * stdio with one client calling sequentially. Each cell warms up, then measures; a request counts
 * when it starts and ends inside the measurement window. Before measuring, both servers must give
 * the same data text and {@code structuredContent} for {@code get_invoice} and
 * {@code list_invoices} in every era, or the run fails. Prints a markdown report to stdout,
 * progress to stderr; no timing assertions, only verdicts against the goal (≥ 0.9× throughput).
 */
public final class WireBenchmark {
  private static final double GOAL = 0.9;
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String FUSION_MAIN = "dev.mcpfusion.samples.billing.BillingMain";

  private WireBenchmark() {}

  /** One measured cell of one server. */
  record Cell(long requests, double seconds, long p50Nanos, long p99Nanos, double serverCores,
      double clientCores, long serverContextSwitches) {
    double throughput() {
      return requests / seconds;
    }

    /** Server CPU time (user + system) per request, in microseconds. */
    double serverCpuMicros() {
      return serverCores * seconds * 1e6 / requests;
    }

    double contextSwitchesPerRequest() {
      return (double) serverContextSwitches / requests;
    }
  }

  private final List<String> diagnostics = new ArrayList<>();

  /** A server process and where to reach it. */
  record Server(String name, Process process, int port, String classicPath, String modernPath,
      Deque<String> stderr) {}

  /** What to run; see the class description for the command line. */
  record Options(String mode, double warmup, double measure, int[] clients, List<String> flags,
      String jar, List<McpCaller.Tool> tools, List<String> transports, Path jfr, String fusionMain) {
    /** The server command line: the same flags for both, plus a JFR recording per server when asked. */
    List<String> java(String name, String main, String... args) {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(flags);
      if (jfr != null) {
        command.add("-XX:StartFlightRecording=settings=profile,filename="
            + jfr.resolve(name + ".jfr").toAbsolutePath());
      }
      command.addAll(List.of("-cp", jar, main));
      command.addAll(List.of(args));
      return command;
    }
  }

  public static void main(String[] args) throws Exception {
    String mode = "quick";
    double warmup = -1;
    double measure = -1;
    int[] clients = {1, 16};
    String jvm = "-Xms512m -Xmx512m";
    String jar = WireProcesses.jarOfThisClass();
    List<String> transports = List.of("streamable", "stateless", "stdio");
    Path jfr = null;
    String fusionMain = FUSION_MAIN;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "quick", "full" -> mode = args[i];
        case "--warmup" -> warmup = Double.parseDouble(args[++i]);
        case "--measure" -> measure = Double.parseDouble(args[++i]);
        case "--clients" -> clients = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
        case "--jvm" -> jvm = args[++i];
        case "--jar" -> jar = args[++i];
        case "--transports" -> transports = List.of(args[++i].split(","));
        case "--jfr" -> jfr = Files.createDirectories(Path.of(args[++i]));
        case "--fusion-main" -> fusionMain = args[++i];
        default -> {
          System.err.println("Unknown option " + args[i] + "; usage: WireBenchmark [quick|full] "
              + "[--warmup S] [--measure S] [--clients 1,16] [--jvm FLAGS] [--jar JAR] "
              + "[--transports streamable,stateless,stdio] [--jfr DIR] [--fusion-main CLASS]");
          System.exit(2);
        }
      }
    }
    if (warmup < 0) {
      warmup = mode.equals("quick") ? 5 : 15;
    }
    if (measure < 0) {
      measure = mode.equals("quick") ? 10 : 30;
    }
    List<String> flags = jvm.isBlank() ? List.of() : List.of(jvm.trim().split("\\s+"));
    List<McpCaller.Tool> tools = mode.equals("quick")
        ? List.of(McpCaller.Tool.GET_INVOICE)
        : List.of(McpCaller.Tool.GET_INVOICE, McpCaller.Tool.LIST_INVOICES);
    new WireBenchmark().run(new Options(mode, warmup, measure, clients, flags, jar, tools, transports, jfr,
        fusionMain));
  }

  private void run(Options o) throws Exception {
    String started = java.time.Instant.now().toString();
    String loadBefore = WireProcesses.loadAverage();
    List<String> rows = new ArrayList<>();
    List<Boolean> eras = new ArrayList<>();
    if (o.transports().contains("streamable")) {
      eras.add(false);
    }
    if (o.transports().contains("stateless")) {
      eras.add(true);
    }
    if (!eras.isEmpty()) {
      httpCells(o, eras, rows);
    }
    if (o.transports().contains("stdio")) {
      stdioCells(o, rows);
    }
    String loadAfter = WireProcesses.loadAverage();

    StringBuilder out = new StringBuilder();
    out.append("## 4. Over the wire (").append(o.mode().toUpperCase(Locale.ROOT)).append(")\n\n");
    out.append("- started: ").append(started).append(", finished: ").append(java.time.Instant.now()).append('\n');
    out.append("- machine: nproc ").append(Runtime.getRuntime().availableProcessors()).append(", ")
        .append(WireProcesses.cpuModel()).append('\n');
    out.append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ')
        .append(System.getProperty("java.runtime.version")).append('\n');
    out.append("- load average (1/5/15 min): before ").append(loadBefore).append(", after ")
        .append(loadAfter).append('\n');
    out.append("- servers: `java ").append(String.join(" ", o.flags())).append(" -cp ").append(o.jar())
        .append(" <main>`; fusion = `").append(o.fusionMain()).append(" [--http 0]`, plain = `")
        .append(PlainSdkWireServer.class.getName()).append(" [--http 0 | --stdio]`\n");
    out.append("- per cell: ").append(fmt(o.warmup())).append(" s warm-up, ").append(fmt(o.measure()))
        .append(" s measured; closed-loop clients, one keep-alive connection (and one session) each\n\n");
    out.append("| transport | tool | clients | fusion req/s | plain req/s | **throughput ratio** | "
        + "fusion p50 / p99 µs | plain p50 / p99 µs | p50 ratio | p99 ratio | goal | verdict | "
        + "CPU cores server+client (fusion / plain) | first |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|\n");
    rows.forEach(r -> out.append(r).append('\n'));
    out.append("\nRatios are fusion / plain: throughput ≥ ").append(GOAL)
        .append("× meets the goal; for p50 and p99, below 1 means fusion is faster.\n\n");
    out.append("Server cost per request in the same cells (from `/proc/<pid>/stat` utime+stime and the "
        + "sum of `/proc/<pid>/task/*/status` context switches over the measurement window):\n\n");
    out.append("| transport | tool | clients | fusion CPU µs/req | plain CPU µs/req | ratio | "
        + "fusion ctx switches/req | plain ctx switches/req |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    diagnostics.forEach(r -> out.append(r).append('\n'));
    System.out.print(out);
  }

  private void httpCells(Options o, List<Boolean> eras, List<String> rows) throws Exception {
    Server fusion = WireProcesses.startHttp("fusion", o.java("fusion-http", o.fusionMain(),
        "--http", "0"), "/mcp", "/mcp");
    Server plain = null;
    try {
      plain = WireProcesses.startHttp("plain", o.java("plain-http", PlainSdkWireServer.class.getName(), "--http", "0"),
          PlainSdkWireServer.CLASSIC_PATH, PlainSdkWireServer.MODERN_PATH);
      for (boolean modern : eras) {
        for (McpCaller.Tool tool : McpCaller.Tool.values()) {
          verify(modern ? "stateless HTTP" : "Streamable HTTP", tool,
              caller(fusion, modern), caller(plain, modern));
        }
      }
      int order = 0;
      for (boolean modern : eras) {
        String transport = modern ? "stateless HTTP (2026-07-28)" : "Streamable HTTP (2025-11-25)";
        for (McpCaller.Tool tool : o.tools()) {
          for (int n : o.clients()) {
            // Alternate which server goes first so a drift in machine load does not always favour one.
            boolean fusionFirst = order++ % 2 == 0;
            Server first = fusionFirst ? fusion : plain;
            Server second = fusionFirst ? plain : fusion;
            Cell a = httpCell(first, modern, tool, n, o.warmup(), o.measure(), transport);
            Cell b = httpCell(second, modern, tool, n, o.warmup(), o.measure(), transport);
            rows.add(row(transport, tool, n, fusionFirst ? a : b, fusionFirst ? b : a,
                fusionFirst ? "fusion" : "plain"));
            diagnostics.add(diagnostic(transport, tool, n, fusionFirst ? a : b, fusionFirst ? b : a));
          }
        }
      }
    } finally {
      WireProcesses.stop(fusion);
      if (plain != null) {
        WireProcesses.stop(plain);
      }
    }
  }

  private void stdioCells(Options o, List<String> rows) throws Exception {
    Process fusionStdio = WireProcesses.spawn(o.java("fusion-stdio", o.fusionMain()));
    Process plainStdio = WireProcesses.spawn(o.java("plain-stdio", PlainSdkWireServer.class.getName(), "--stdio"));
    try (McpCaller f = McpCaller.stdio(fusionStdio); McpCaller p = McpCaller.stdio(plainStdio)) {
      for (McpCaller.Tool tool : McpCaller.Tool.values()) {
        verify("stdio", tool, () -> kept(f), () -> kept(p));
      }
      int order = 0;
      for (McpCaller.Tool tool : o.tools()) {
        boolean fusionFirst = order++ % 2 == 0;
        Cell a = stdioCell(fusionFirst ? f : p, (fusionFirst ? fusionStdio : plainStdio).pid(), tool,
            o.warmup(), o.measure(), fusionFirst ? "fusion" : "plain");
        Cell b = stdioCell(fusionFirst ? p : f, (fusionFirst ? plainStdio : fusionStdio).pid(), tool,
            o.warmup(), o.measure(), fusionFirst ? "plain" : "fusion");
        rows.add(row("stdio (2025-11-25), sequential", tool, 1, fusionFirst ? a : b, fusionFirst ? b : a,
            fusionFirst ? "fusion" : "plain"));
        diagnostics.add(diagnostic("stdio (2025-11-25), sequential", tool, 1, fusionFirst ? a : b,
            fusionFirst ? b : a));
      }
    }
  }

  private static String row(String transport, McpCaller.Tool tool, int clients, Cell f, Cell p, String first) {
    double ratio = f.throughput() / p.throughput();
    return "| " + transport + " | `" + tool.name + "` | " + clients
        + " | " + fmt(f.throughput()) + " | " + fmt(p.throughput())
        + " | **" + String.format(Locale.ROOT, "%.3f×", ratio) + "**"
        + " | " + micros(f.p50Nanos()) + " / " + micros(f.p99Nanos())
        + " | " + micros(p.p50Nanos()) + " / " + micros(p.p99Nanos())
        + " | " + String.format(Locale.ROOT, "%.3f×", (double) f.p50Nanos() / p.p50Nanos())
        + " | " + String.format(Locale.ROOT, "%.3f×", (double) f.p99Nanos() / p.p99Nanos())
        + " | ≥ " + GOAL + "× | " + (ratio >= GOAL ? "MET" : "**MISSED**")
        + " | " + String.format(Locale.ROOT, "%.2f+%.2f / %.2f+%.2f", f.serverCores(), f.clientCores(),
            p.serverCores(), p.clientCores())
        + " | " + first + " |";
  }

  private static String diagnostic(String transport, McpCaller.Tool tool, int clients, Cell f, Cell p) {
    return "| " + transport + " | `" + tool.name + "` | " + clients
        + " | " + String.format(Locale.ROOT, "%.0f", f.serverCpuMicros())
        + " | " + String.format(Locale.ROOT, "%.0f", p.serverCpuMicros())
        + " | " + String.format(Locale.ROOT, "%.3f×", f.serverCpuMicros() / p.serverCpuMicros())
        + " | " + String.format(Locale.ROOT, "%.1f", f.contextSwitchesPerRequest())
        + " | " + String.format(Locale.ROOT, "%.1f", p.contextSwitchesPerRequest()) + " |";
  }

  private static McpCallerFactory caller(Server server, boolean modern) {
    return () -> modern ? McpCaller.modernHttp(server.port(), server.modernPath())
        : McpCaller.classicHttp(server.port(), server.classicPath());
  }

  /** Opens a client (handshake included). */
  @FunctionalInterface
  interface McpCallerFactory {
    McpCaller open() throws IOException;
  }

  /** Fails unless both servers answer {@code tool} with the same data text and structuredContent. */
  static void verify(String transport, McpCaller.Tool tool, McpCallerFactory fusion,
      McpCallerFactory plain) throws IOException {
    Map<?, ?> f = result(fusion, tool);
    Map<?, ?> p = result(plain, tool);
    Object fText = firstText(f);
    Object pText = firstText(p);
    if (fText == null || !fText.equals(pText) || !Objects.equals(f.get("structuredContent"), p.get("structuredContent"))
        || Boolean.TRUE.equals(f.get("isError")) || Boolean.TRUE.equals(p.get("isError"))) {
      throw new IllegalStateException(transport + " " + tool.name + ": the servers answer different data.\n"
          + "fusion: " + f + "\nplain:  " + p);
    }
    System.err.printf("verified %s %s: same data text (%d chars) and structuredContent%n",
        transport, tool.name, fText.toString().length());
  }

  /** {@code caller} with a {@code close()} that leaves it open (stdio: one process per server). */
  static McpCaller kept(McpCaller caller) {
    return new McpCaller() {
      @Override
      public String call(long id, Tool tool) throws IOException {
        return caller.call(id, tool);
      }

      @Override
      public void close() {}
    };
  }

  private static Map<?, ?> result(McpCallerFactory factory, McpCaller.Tool tool) throws IOException {
    String response;
    try (McpCaller caller = factory.open()) {
      response = caller.call(1, tool);
    }
    Map<?, ?> message = JSON.readValue(response, Map.class);
    if (!(message.get("result") instanceof Map<?, ?> result)) {
      throw new IllegalStateException(tool.name + " got no result: " + response);
    }
    return result;
  }

  private static Object firstText(Map<?, ?> result) {
    return result.get("content") instanceof List<?> content && !content.isEmpty()
        && content.get(0) instanceof Map<?, ?> block ? block.get("text") : null;
  }

  private Cell httpCell(Server server, boolean modern, McpCaller.Tool tool, int clients,
      double warmup, double measure, String transport) throws Exception {
    System.err.printf("%s %s %s, %d client(s)...%n", server.name(), transport, tool.name, clients);
    List<McpCaller> callers = new ArrayList<>();
    try {
      for (int i = 0; i < clients; i++) {
        callers.add(caller(server, modern).open());
      }
      Cell cell = measure(callers, server.process().pid(), tool, warmup, measure);
      System.err.printf("  %.0f req/s, p50 %s µs, p99 %s µs, server %.0f µs CPU and %.1f context switches per request%n",
          cell.throughput(), micros(cell.p50Nanos()), micros(cell.p99Nanos()), cell.serverCpuMicros(),
          cell.contextSwitchesPerRequest());
      return cell;
    } finally {
      callers.forEach(McpCaller::close);
    }
  }

  private Cell stdioCell(McpCaller caller, long pid, McpCaller.Tool tool, double warmup,
      double measure, String name) throws Exception {
    System.err.printf("%s stdio %s, sequential...%n", name, tool.name);
    Cell cell = measure(List.of(caller), pid, tool, warmup, measure);
    System.err.printf("  %.0f req/s, p50 %s µs, p99 %s µs%n", cell.throughput(),
        micros(cell.p50Nanos()), micros(cell.p99Nanos()));
    return cell;
  }

  /** Runs every caller in its own closed loop through warm-up and measurement. */
  private static Cell measure(List<McpCaller> callers, long serverPid, McpCaller.Tool tool,
      double warmupSeconds, double measureSeconds) throws Exception {
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    long from = start + (long) (warmupSeconds * 1e9);
    long to = from + (long) (measureSeconds * 1e9);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong ids = new AtomicLong(1000);
    List<long[]> latencies = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(callers.size());
    for (McpCaller caller : callers) {
      long[][] box = {new long[1 << 16]};
      int[] count = {0};
      Thread t = new Thread(() -> {
        try {
          while (System.nanoTime() < start) {
            Thread.onSpinWait();
          }
          while (failure.get() == null) {
            long t0 = System.nanoTime();
            if (t0 >= to) {
              break;
            }
            String response = caller.call(ids.incrementAndGet(), tool);
            long t1 = System.nanoTime();
            if (!response.contains("INV-") || response.contains("\"isError\":true")
                || response.contains("\"error\":{")) {
              throw new IllegalStateException("Unexpected answer: " + response);
            }
            if (t0 >= from && t1 <= to) {
              if (count[0] == box[0].length) {
                box[0] = Arrays.copyOf(box[0], box[0].length * 2);
              }
              box[0][count[0]++] = t1 - t0;
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          synchronized (latencies) {
            latencies.add(Arrays.copyOf(box[0], count[0]));
          }
          done.countDown();
        }
      }, "wire-client");
      t.setDaemon(true);
      t.start();
    }
    sleepUntil(from);
    long serverCpu0 = WireProcesses.cpuTicks(serverPid);
    long switches0 = WireProcesses.contextSwitches(serverPid);
    long clientCpu0 = WireProcesses.clientCpuNanos();
    long wall0 = System.nanoTime();
    sleepUntil(to);
    long serverCpu1 = WireProcesses.cpuTicks(serverPid);
    long switches1 = WireProcesses.contextSwitches(serverPid);
    long clientCpu1 = WireProcesses.clientCpuNanos();
    double wall = (System.nanoTime() - wall0) / 1e9;
    if (!done.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("Clients did not finish");
    }
    if (failure.get() != null) {
      throw new IllegalStateException("A client failed", failure.get());
    }
    long total = latencies.stream().mapToLong(l -> l.length).sum();
    long[] all = new long[(int) total];
    int at = 0;
    for (long[] l : latencies) {
      System.arraycopy(l, 0, all, at, l.length);
      at += l.length;
    }
    Arrays.sort(all);
    if (all.length == 0) {
      throw new IllegalStateException("No request completed inside the measurement window");
    }
    return new Cell(all.length, measureSeconds, percentile(all, 0.50), percentile(all, 0.99),
        (serverCpu1 - serverCpu0) / 100.0 / wall,
        (clientCpu1 - clientCpu0) / 1e9 / wall, switches1 - switches0);
  }

  private static long percentile(long[] sorted, double p) {
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private static String micros(long nanos) {
    return String.format(Locale.ROOT, "%.0f", nanos / 1000.0);
  }

  static String fmt(double value) {
    return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
  }
}
