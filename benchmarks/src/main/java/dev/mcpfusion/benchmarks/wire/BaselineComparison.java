package dev.mcpfusion.benchmarks.wire;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The billing sample against servers other stacks build by hand, side by side in one run:
 * {@code billing_get_invoice} over the same 1,000 invoices on the plain MCP TypeScript SDK
 * ({@code benchmarks/baselines/ts-sdk}, stdio and Streamable HTTP) and on the Quarkus MCP server
 * extension ({@code benchmarks/baselines/quarkus-mcp}, Streamable HTTP).
 *
 * <pre>
 * java -cp benchmarks.jar dev.mcpfusion.benchmarks.wire.BaselineComparison
 *     [--warmup 2000] [--stdio-calls 50000] [--http-calls 20000] [--in-flight 1,16] [--clients 1,16]
 *     [--transports stdio,http] [--max-seconds 300] [--jvm "-Xms512m -Xmx512m"] [--node node]
 *     [--sample samples/billing/target/fusion-sample-billing.jar] [--ts-dir benchmarks/baselines/ts-sdk]
 *     [--quarkus-jar benchmarks/baselines/quarkus-mcp/target/quarkus-app/quarkus-run.jar]
 *     [--redis-server redis-server]
 * </pre>
 *
 * <p>Each server runs in its own process, one per transport, and stays up for all its cells. A
 * cell is a warm-up of {@code --warmup} calls, then the measured calls: over stdio one client with
 * 1 or 16 requests in flight ({@link StdioPipeline}); over Streamable HTTP 1 or 16 closed-loop
 * clients, each with its own session and keep-alive connection ({@link McpCaller#classicHttp}),
 * sharing the count. The server's CPU time (utime + stime of its process) is read before and after
 * the measured calls only. Subjects take turns going first from cell to cell, so a drift in machine
 * load does not always favour one. Before measuring, every baseline must give the same data text
 * and {@code structuredContent} as the sample, or the run fails. A baseline that is not built (or
 * no {@code node}) is skipped with a line saying why. With {@code --redis-server}, one more subject
 * over Streamable HTTP, {@code fusion+redis}: the same sample with {@code --redis} on a private
 * redis-server this harness starts (no persistence, a free loopback port), so the cost of keeping
 * sessions in Redis reads beside the in-memory {@code fusion}; its server CPU is the JVM's plus
 * redis-server's. Bounded: each phase stops sending after
 * {@code --max-seconds} and the report says so. Prints markdown to stdout, progress to stderr.
 */
public final class BaselineComparison {
  private static final String FUSION = "fusion";
  private static final String TS = "ts-sdk";
  private static final String QUARKUS = "quarkus";
  private static final String FUSION_REDIS = "fusion+redis";

  private BaselineComparison() {}

  /** What to run; see the class description for the command line. */
  record Options(int warmup, int stdioCalls, int httpCalls, int[] inFlight, int[] clients,
      List<String> transports, double maxSeconds, List<String> jvmFlags, String node, Path sample,
      Path tsDir, Path quarkusJar, String redisServer) {
    Path tsServer() {
      return tsDir.resolve("dist/server.js");
    }
  }

  /** One measured cell of one subject. */
  record Cell(String subject, long calls, long nanos, long serverTicks, boolean timedOut) {
    double callsPerSecond() {
      return calls * 1e9 / nanos;
    }

    /** Server CPU (user + system) per call in milliseconds; a tick is 10 ms (USER_HZ 100). */
    double serverCpuMillis() {
      return serverTicks * 10.0 / calls;
    }
  }

  /** How to start one subject's server; {@code null} commands mean the transport is not offered. */
  record Subject(String name, List<String> stdio, HttpCommand http) {}

  /** A server command for a port the caller chose (0 where the server reports the one it bound). */
  @FunctionalInterface
  interface HttpCommand {
    List<String> forPort(int port);
  }

  public static void main(String[] args) throws Exception {
    int warmup = 2_000;
    int stdioCalls = 50_000;
    int httpCalls = 20_000;
    int[] inFlight = {1, 16};
    int[] clients = {1, 16};
    List<String> transports = List.of("stdio", "http");
    double maxSeconds = 300;
    String jvm = "-Xms512m -Xmx512m";
    String node = "node";
    Path sample = Path.of("samples/billing/target/fusion-sample-billing.jar");
    Path tsDir = Path.of("benchmarks/baselines/ts-sdk");
    Path quarkusJar = Path.of("benchmarks/baselines/quarkus-mcp/target/quarkus-app/quarkus-run.jar");
    String redisServer = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--stdio-calls" -> stdioCalls = Integer.parseInt(args[++i]);
        case "--http-calls" -> httpCalls = Integer.parseInt(args[++i]);
        case "--in-flight" -> inFlight = ints(args[++i]);
        case "--clients" -> clients = ints(args[++i]);
        case "--transports" -> transports = List.of(args[++i].split(","));
        case "--max-seconds" -> maxSeconds = Double.parseDouble(args[++i]);
        case "--jvm" -> jvm = args[++i];
        case "--node" -> node = args[++i];
        case "--sample" -> sample = Path.of(args[++i]);
        case "--ts-dir" -> tsDir = Path.of(args[++i]);
        case "--quarkus-jar" -> quarkusJar = Path.of(args[++i]);
        case "--redis-server" -> redisServer = args[++i];
        default -> {
          System.err.println("Unknown option " + args[i] + "; see the Javadoc of " + BaselineComparison.class.getName());
          System.exit(2);
        }
      }
    }
    List<String> flags = jvm.isBlank() ? List.of() : List.of(jvm.trim().split("\\s+"));
    new BaselineComparison().run(new Options(warmup, stdioCalls, httpCalls, inFlight, clients, transports,
        maxSeconds, flags, node, sample, tsDir, quarkusJar, redisServer));
  }

  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  /** The private redis-server of the {@code fusion+redis} subject, or {@code null}. */
  private Process redis;

  private void run(Options o) throws Exception {
    if (!Files.isRegularFile(o.sample())) {
      throw new IllegalStateException("No sample jar at " + o.sample()
          + ": run mvn -B -q -pl benchmarks -am package -DskipTests first");
    }
    String started = java.time.Instant.now().toString();
    String loadBefore = WireProcesses.loadAverage();
    List<Subject> subjects = subjects(o);
    try {
      if (o.transports().contains("stdio")) {
        stdio(o, subjects.stream().filter(s -> s.stdio() != null).toList());
      }
      if (o.transports().contains("http")) {
        http(o, subjects.stream().filter(s -> s.http() != null).toList());
      }
    } finally {
      if (redis != null) {
        redis.destroy();
        redis.waitFor(10, TimeUnit.SECONDS);
      }
    }
    StringBuilder out = new StringBuilder();
    out.append("## Baselines: fusion against the TypeScript SDK and Quarkus MCP (`billing_get_invoice`, warm)\n\n");
    out.append("- started: ").append(started).append(", finished: ").append(java.time.Instant.now()).append('\n');
    out.append("- machine: nproc ").append(Runtime.getRuntime().availableProcessors()).append(", ")
        .append(WireProcesses.cpuModel()).append("; load average (1/5/15 min) before ").append(loadBefore)
        .append(", after ").append(WireProcesses.loadAverage()).append('\n');
    out.append("- JVM servers: `java ").append(String.join(" ", o.jvmFlags())).append("` (")
        .append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.runtime.version"))
        .append("); node: ").append(nodeVersion(o.node())).append('\n');
    out.append("- fusion: `java -jar ").append(o.sample()).append(" [--http PORT]`; ts-sdk: `node ")
        .append(o.tsServer()).append(" [--http PORT]`; quarkus: `java -Dquarkus.http.port=PORT -jar ")
        .append(o.quarkusJar()).append("`\n");
    out.append("- per cell: ").append(o.warmup()).append(" warm-up calls, then ").append(o.stdioCalls())
        .append(" measured calls over stdio, ").append(o.httpCalls())
        .append(" over Streamable HTTP (2025-11-25, one session and keep-alive connection per client)\n");
    notes.forEach(n -> out.append("- ").append(n).append('\n'));
    out.append("\n| transport | in flight / clients | server | calls | calls/s | server CPU ms/call "
        + "| fusion ÷ this, calls/s | fusion ÷ this, CPU/call | order |\n");
    out.append("|---|---:|---|---:|---:|---:|---:|---:|---|\n");
    rows.forEach(r -> out.append(r).append('\n'));
    out.append("\nRatios are fusion / this server: for calls/s above 1 means fusion serves more; for CPU per "
        + "call below 1 means fusion spends less of the server's CPU on a call. Server CPU is the server "
        + "process's utime + stime (`/proc/<pid>/stat`) over the measured calls, in 10 ms ticks.\n");
    System.out.print(out);
  }

  /** The subjects present on this machine; each one missing is a line of the report. */
  private List<Subject> subjects(Options o) throws IOException, InterruptedException {
    List<Subject> subjects = new ArrayList<>();
    subjects.add(new Subject(FUSION, java(o, "-jar", o.sample().toString()),
        port -> java(o, "-jar", o.sample().toString(), "--http", Integer.toString(port))));
    String nodeVersion = nodeVersion(o.node());
    if (nodeVersion.startsWith("v") && Files.isRegularFile(o.tsServer())) {
      subjects.add(new Subject(TS, List.of(o.node(), o.tsServer().toString()),
          port -> List.of(o.node(), o.tsServer().toString(), "--http", Integer.toString(port))));
    } else {
      notes.add("ts-sdk skipped: " + (nodeVersion.startsWith("v") ? "no " + o.tsServer()
          + " (run `npm install` in " + o.tsDir() + ")" : "no `" + o.node() + "` (" + nodeVersion + ")"));
    }
    if (Files.isRegularFile(o.quarkusJar())) {
      subjects.add(new Subject(QUARKUS, null, port -> java(o, "-Dquarkus.http.port=" + port, "-jar",
          o.quarkusJar().toString())));
    } else {
      notes.add("quarkus skipped: no " + o.quarkusJar() + " (run `mvn -f benchmarks/baselines/quarkus-mcp/pom.xml package`)");
    }
    if (o.redisServer() != null) {
      String url = startRedis(o.redisServer());
      subjects.add(new Subject(FUSION_REDIS, null, port -> java(o, "-jar", o.sample().toString(),
          "--http", Integer.toString(port), "--redis", url)));
      notes.add(FUSION_REDIS + ": `java -jar " + o.sample() + " --http PORT --redis " + url
          + "`, sessions in `" + o.redisServer() + " --save '' --appendonly no`; its server CPU is the"
          + " JVM's plus redis-server's");
    }
    return subjects;
  }

  /** Starts a private redis-server on a free loopback port and waits until it accepts connections. */
  private String startRedis(String command) throws IOException, InterruptedException {
    int port = freePort();
    redis = WireProcesses.spawn(List.of(command, "--port", Integer.toString(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      try (java.net.Socket probe = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
        return "redis://127.0.0.1:" + port;
      } catch (IOException notYet) {
        if (!redis.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException(command + " did not start on port " + port, notYet);
        }
        Thread.sleep(50);
      }
    }
  }

  /** A server's CPU ticks: with {@code fusion+redis}, redis-server's are the server's too. */
  private long serverTicks(WireBenchmark.Server server) {
    long ticks = WireProcesses.cpuTicks(server.process().pid());
    return server.name().equals(FUSION_REDIS) ? ticks + WireProcesses.cpuTicks(redis.pid()) : ticks;
  }

  private void stdio(Options o, List<Subject> subjects) throws Exception {
    Map<String, StdioPipeline> clients = new LinkedHashMap<>();
    Map<String, Long> pids = new LinkedHashMap<>();
    try {
      for (Subject s : subjects) {
        Process process = WireProcesses.spawn(s.stdio());
        pids.put(s.name(), process.pid());
        clients.put(s.name(), StdioPipeline.open(process));
        System.err.printf("%s stdio server pid %d%n", s.name(), process.pid());
      }
      for (String name : clients.keySet()) {
        if (!name.equals(FUSION)) {
          StdioPipeline fusion = clients.get(FUSION);
          StdioPipeline baseline = clients.get(name);
          WireBenchmark.verify("stdio, fusion vs " + name, McpCaller.Tool.GET_INVOICE,
              () -> WireBenchmark.kept(fusion), () -> WireBenchmark.kept(baseline));
        }
      }
      int turn = 0;
      for (int n : o.inFlight()) {
        List<Cell> cells = new ArrayList<>();
        for (String name : rotate(new ArrayList<>(clients.keySet()), turn++)) {
          System.err.printf("%s stdio, %d in flight...%n", name, n);
          StdioPipeline client = clients.get(name);
          long limit = (long) (o.maxSeconds() * 1e9);
          StdioPipeline.Run warm = client.run(o.warmup(), n, System.nanoTime() + limit);
          long ticks0 = WireProcesses.cpuTicks(pids.get(name));
          StdioPipeline.Run measured = client.run(o.stdioCalls(), n, System.nanoTime() + limit);
          long ticks1 = WireProcesses.cpuTicks(pids.get(name));
          cells.add(report(new Cell(name, measured.calls(), measured.nanos(), ticks1 - ticks0,
              warm.timedOut() || measured.timedOut())));
        }
        addRows("stdio", n, cells);
      }
    } finally {
      clients.values().forEach(StdioPipeline::close);
    }
  }

  private void http(Options o, List<Subject> subjects) throws Exception {
    Map<String, WireBenchmark.Server> servers = new LinkedHashMap<>();
    try {
      for (Subject s : subjects) {
        // Quarkus cannot report a port it picked itself (HttpServerStart carries -1 for port 0), so
        // every server gets a free port chosen here.
        servers.put(s.name(), WireProcesses.startHttp(s.name(), s.http().forPort(freePort()), "/mcp", "/mcp"));
      }
      WireBenchmark.Server fusion = servers.get(FUSION);
      for (WireBenchmark.Server server : servers.values()) {
        if (server != fusion) {
          WireBenchmark.verify("Streamable HTTP, fusion vs " + server.name(), McpCaller.Tool.GET_INVOICE,
              () -> McpCaller.classicHttp(fusion.port(), "/mcp"), () -> McpCaller.classicHttp(server.port(), "/mcp"));
        }
      }
      int turn = 0;
      for (int n : o.clients()) {
        List<Cell> cells = new ArrayList<>();
        for (String name : rotate(new ArrayList<>(servers.keySet()), turn++)) {
          System.err.printf("%s Streamable HTTP, %d client(s)...%n", name, n);
          cells.add(report(httpCell(o, servers.get(name), n)));
        }
        addRows("Streamable HTTP", n, cells);
      }
    } finally {
      for (WireBenchmark.Server server : servers.values()) {
        WireProcesses.stop(server);
      }
    }
  }

  private Cell httpCell(Options o, WireBenchmark.Server server, int clients) throws Exception {
    List<McpCaller> callers = new ArrayList<>();
    try {
      for (int i = 0; i < clients; i++) {
        callers.add(McpCaller.classicHttp(server.port(), "/mcp"));
      }
      long limit = (long) (o.maxSeconds() * 1e9);
      long[] warm = closedLoop(callers, o.warmup(), System.nanoTime() + limit);
      long ticks0 = serverTicks(server);
      long[] measured = closedLoop(callers, o.httpCalls(), System.nanoTime() + limit);
      long ticks1 = serverTicks(server);
      return new Cell(server.name(), measured[0], measured[1], ticks1 - ticks0,
          warm[0] < o.warmup() || measured[0] < o.httpCalls());
    } finally {
      callers.forEach(McpCaller::close);
    }
  }

  /**
   * Every caller in its own thread, calling {@code get_invoice} until {@code calls} calls (shared)
   * are answered or the deadline passes; returns the calls answered and the wall-clock nanos.
   */
  private static long[] closedLoop(List<McpCaller> callers, long calls, long deadlineNanos) throws Exception {
    AtomicLong tickets = new AtomicLong();
    AtomicLong answered = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(callers.size());
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (McpCaller caller : callers) {
      Thread t = new Thread(() -> {
        try {
          ready.countDown();
          go.await();
          while (failure.get() == null && System.nanoTime() < deadlineNanos) {
            long ticket = tickets.getAndIncrement();
            if (ticket >= calls) {
              break;
            }
            String response = caller.call(ticket + 1, McpCaller.Tool.GET_INVOICE);
            if (!response.contains("INV-") || response.contains("\"isError\":true")
                || response.contains("\"error\":{")) {
              throw new IllegalStateException("Unexpected answer: " + response);
            }
            answered.incrementAndGet();
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "baseline-client");
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    ready.await();
    long t0 = System.nanoTime();
    go.countDown();
    for (Thread t : threads) {
      // The deadline stops new calls; a minute more is for the ones in flight.
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()) + 60_000));
    }
    long nanos = System.nanoTime() - t0;
    if (failure.get() != null) {
      throw new IllegalStateException("A client failed", failure.get());
    }
    return new long[] {answered.get(), nanos};
  }

  private static Cell report(Cell cell) {
    System.err.printf("  %d calls, %.0f calls/s, server %.4f ms CPU per call%s%n", cell.calls(),
        cell.callsPerSecond(), cell.serverCpuMillis(), cell.timedOut() ? " (stopped at the time limit)" : "");
    return cell;
  }

  private void addRows(String transport, int concurrency, List<Cell> cells) {
    Cell fusion = cells.stream().filter(c -> c.subject().equals(FUSION)).findFirst().orElseThrow();
    String order = String.join(", ", cells.stream().map(Cell::subject).toList());
    for (Cell c : cells.stream().sorted((a, b) -> Boolean.compare(!a.subject().equals(FUSION),
        !b.subject().equals(FUSION))).toList()) {
      boolean self = c == fusion;
      rows.add("| " + transport + " | " + concurrency + " | " + c.subject()
          + " | " + c.calls() + (c.timedOut() ? " (time limit)" : "")
          + " | " + WireBenchmark.fmt(c.callsPerSecond())
          + " | " + String.format(Locale.ROOT, "%.4f", c.serverCpuMillis())
          + " | " + (self ? "—" : String.format(Locale.ROOT, "**%.3f×**", fusion.callsPerSecond() / c.callsPerSecond()))
          + " | " + (self ? "—" : String.format(Locale.ROOT, "**%.3f×**", fusion.serverCpuMillis() / c.serverCpuMillis()))
          + " | " + order + " |");
    }
  }

  /** {@code names} rotated left by {@code turn}: who goes first changes from cell to cell. */
  private static List<String> rotate(List<String> names, int turn) {
    if (!names.isEmpty()) {
      java.util.Collections.rotate(names, -(turn % names.size()));
    }
    return names;
  }

  private static List<String> java(Options o, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(o.jvmFlags());
    command.addAll(Arrays.asList(args));
    return command;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** {@code node --version}, or why there is none. */
  private static String nodeVersion(String node) {
    try {
      Process p = new ProcessBuilder(node, "--version").redirectErrorStream(true).start();
      String version = new String(p.getInputStream().readAllBytes()).trim();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "no answer to --version";
      }
      return p.exitValue() == 0 ? version : "exit " + p.exitValue();
    } catch (IOException e) {
      return "not found";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static int[] ints(String csv) {
    return Arrays.stream(csv.split(",")).mapToInt(Integer::parseInt).toArray();
  }
}
