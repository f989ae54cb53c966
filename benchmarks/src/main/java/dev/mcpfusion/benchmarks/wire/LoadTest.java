package dev.mcpfusion.benchmarks.wire;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The guards under load, loopback only: {@code clients} concurrent clients each make
 * {@code calls} mixed calls — successes, validation errors, not-found, calls past their deadline
 * and calls against a small concurrency gate — over Streamable HTTP (twice: the second with
 * {@code answerOnIoThread}, so some calls on a connection are answered on the I/O thread and the
 * rest on the pool), stateless HTTP and stdio.
 * Every request must get exactly its own response (its id and its number in the payload or the
 * expected error code), none may be lost, the gate must never admit more calls than its limit
 * (counted inside the handler), and the heap must stay under {@code --max-heap-mb}. Prints per
 * transport the requests, the outcomes by code, p50/p99 latency and the peak heap; exits 1 on any
 * violation.
 *
 * <pre>java -Xmx256m -cp benchmarks.jar dev.mcpfusion.benchmarks.wire.LoadTest --clients 16 --calls 10000</pre>
 */
public final class LoadTest {
  private static final Pattern ID = Pattern.compile("^\\{\"jsonrpc\":\"2\\.0\",\"id\":(\\d+),");
  private static final Pattern CODE = Pattern.compile("code=\\\\\"([A-Z_]+)\\\\\"");
  private static final String MODERN_META = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
      + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}";

  /** The kinds of call in the mix, with what each may be answered. */
  enum Kind {
    ECHO("load_echo"), INVALID("load_echo"), NOT_FOUND("load_find"), SLOW("load_slow"), WORK("load_work");

    final String tool;

    Kind(String tool) {
      this.tool = tool;
    }

    /** Of every 50 calls: 1 slow, 2 invalid, 2 not-found, 15 against the gate, 30 quick successes. */
    static Kind of(long i) {
      int r = (int) (i % 50);
      if (r == 0) {
        return SLOW;
      } else if (r <= 2) {
        return INVALID;
      } else if (r <= 4) {
        return NOT_FOUND;
      } else if (r <= 19) {
        return WORK;
      }
      return ECHO;
    }

    String arguments(long n) {
      return this == INVALID ? (n % 2 == 0 ? "{\"n\":-1}" : "{\"n\":\"x" + n + "\"}") : "{\"n\":" + n + "}";
    }
  }

  private interface Client extends AutoCloseable {
    String call(long id, Kind kind, String body) throws IOException;

    @Override
    void close();
  }

  private static final class Outcome {
    final LongAdder requests = new LongAdder();
    final Map<String, LongAdder> byCode = new ConcurrentHashMap<>();
    final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
    long[] latencies;
  }

  public static void main(String[] args) throws Exception {
    int clients = 16;
    int calls = 10_000;
    long maxHeapMb = 192;
    List<String> transports = List.of("streamable-http", "streamable-http-io", "stateless-http",
        "stdio");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--calls" -> calls = Integer.parseInt(args[++i]);
        case "--max-heap-mb" -> maxHeapMb = Long.parseLong(args[++i]);
        case "--transports" -> transports = List.of(args[++i].split(","));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    AtomicLong peakHeap = new AtomicLong();
    Thread sampler = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        peakHeap.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "heap-sampler");
    sampler.setDaemon(true);
    sampler.start();

    System.out.printf("load test: %d clients x %d mixed calls per transport, max heap %d MiB (-Xmx %d MiB)%n",
        clients, calls, maxHeapMb, Runtime.getRuntime().maxMemory() >> 20);
    boolean ok = true;
    for (String transport : transports) {
      LoadTools tools = new LoadTools();
      FusionServer server = FusionServer.builder("load", "1.0.0").register(tools).build();
      peakHeap.set(memory.getHeapMemoryUsage().getUsed());
      long start = System.nanoTime();
      Outcome outcome = switch (transport) {
        case "streamable-http", "stateless-http" -> http(server, transport.startsWith("stateless"),
            false, clients, calls);
        case "streamable-http-io" -> http(server, false, true, clients, calls);
        case "stdio" -> stdio(server, clients, calls);
        default -> throw new IllegalArgumentException("unknown transport " + transport);
      };
      double seconds = (System.nanoTime() - start) / 1e9;
      if (tools.peakWorking.get() > LoadTools.WORK_CONCURRENT) {
        outcome.violations.add("the gate let " + tools.peakWorking.get() + " work calls run at once; its limit is "
            + LoadTools.WORK_CONCURRENT);
      }
      long expected = (long) clients * calls;
      if (outcome.requests.sum() != expected) {
        outcome.violations.add(outcome.requests.sum() + " answered of " + expected);
      }
      long peakMb = peakHeap.get() >> 20;
      if (peakMb > maxHeapMb) {
        outcome.violations.add("peak heap " + peakMb + " MiB over the " + maxHeapMb + " MiB bound");
      }
      long[] l = outcome.latencies;
      Arrays.sort(l);
      Map<String, Long> codes = new TreeMap<>();
      outcome.byCode.forEach((k, v) -> codes.put(k, v.sum()));
      System.out.printf("%-15s requests=%d in %.1f s (%.0f/s) outcomes=%s p50=%.2f ms p99=%.2f ms "
              + "peak-heap=%d MiB gate-peak=%d/%d interrupted-slow=%d%n",
          transport, outcome.requests.sum(), seconds, outcome.requests.sum() / seconds, codes,
          l[l.length / 2] / 1e6, l[(int) Math.min(l.length - 1, Math.ceil(l.length * 0.99) - 1)] / 1e6,
          peakMb, tools.peakWorking.get(), LoadTools.WORK_CONCURRENT, tools.interrupted.get());
      for (String v : outcome.violations.subList(0, Math.min(10, outcome.violations.size()))) {
        System.out.println("  VIOLATION " + v);
      }
      ok &= outcome.violations.isEmpty();
    }
    sampler.interrupt();
    System.out.println(ok ? "load test passed" : "load test FAILED");
    System.exit(ok ? 0 : 1);
  }

  private static String body(long id, Kind kind, long n, boolean modern) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + kind.tool + "\",\"arguments\":" + kind.arguments(n) + (modern ? MODERN_META : "") + "}}";
  }

  /** Runs {@code clients} threads of {@code calls} calls each against clients made by {@code open}. */
  private static Outcome drive(int clients, int calls, boolean modern,
      java.util.function.IntFunction<Client> open) throws InterruptedException {
    Outcome outcome = new Outcome();
    long[][] latencies = new long[clients][calls];
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int client = c;
      Thread t = new Thread(() -> {
        try (Client caller = open.apply(client)) {
          for (int i = 0; i < calls; i++) {
            long id = (long) client * 1_000_000 + i + 1;
            Kind kind = Kind.of(i + client);
            long begin = System.nanoTime();
            String reply = caller.call(id, kind, body(id, kind, id, modern));
            latencies[client][i] = System.nanoTime() - begin;
            check(outcome, id, kind, reply);
          }
        } catch (IOException | RuntimeException e) {
          outcome.violations.add("client " + client + " failed: " + e);
        }
      }, "load-client-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    outcome.latencies = Arrays.stream(latencies).flatMapToLong(Arrays::stream).filter(x -> x > 0).toArray();
    if (outcome.latencies.length == 0) {
      outcome.latencies = new long[] {0};
    }
    return outcome;
  }

  /** Checks that {@code reply} answers request {@code id} of {@code kind}, and counts its outcome. */
  private static void check(Outcome outcome, long id, Kind kind, String reply) {
    outcome.requests.increment();
    Matcher m = reply == null ? null : ID.matcher(reply);
    if (m == null || !m.find() || Long.parseLong(m.group(1)) != id) {
      outcome.violations.add("request " + id + " got " + abbreviate(reply));
      return;
    }
    Matcher c = CODE.matcher(reply);
    String code = reply.contains("\"isError\":true") ? (c.find() ? c.group(1)
        : reply.contains("<validation_error") ? "VALIDATION_ERROR" : "?") : "OK";
    outcome.byCode.computeIfAbsent(code, k -> new LongAdder()).increment();
    boolean expected = switch (kind) {
      case ECHO -> code.equals("OK") && reply.contains("\"text\":\"echo " + id + "\"");
      case INVALID -> code.equals("VALIDATION_ERROR");
      case NOT_FOUND -> code.equals("NOT_FOUND") && reply.contains("Item " + id + " does not exist.");
      case SLOW -> code.equals("TIMEOUT") && !reply.contains("late " + id) && !reply.contains("slow " + id);
      case WORK -> code.equals("OK") && reply.contains("\"text\":\"work " + id + "\"") || code.equals("SERVER_BUSY");
    };
    if (!expected) {
      outcome.violations.add(kind + " request " + id + " got " + abbreviate(reply));
    }
  }

  private static String abbreviate(String s) {
    return s == null ? "nothing" : s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  /**
   * @param onIoThread {@link HttpOptions#answerOnIoThread}: the echo and not-found calls
   *     ({@code @NonBlocking}) are then answered on Jetty's I/O thread, the rest on the pool, on the
   *     same connections
   */
  private static Outcome http(FusionServer server, boolean modern, boolean onIoThread, int clients,
      int calls) throws Exception {
    try (FusionHttpServer running = FusionHttp.serve(server,
        HttpOptions.port(0).stopOnShutdownSignal(false).answerOnIoThread(onIoThread))) {
      int port = running.port();
      return drive(clients, calls, modern, client -> {
        HttpConnection connection = new HttpConnection(port, "/mcp");
        byte[] headers;
        try {
          if (modern) {
            // Per call, with the tool's name: a 2026-07-28 call carries the standard headers.
            headers = null;
          } else {
            HttpConnection.Response init = connection.post(new byte[0], ("{\"jsonrpc\":\"2.0\",\"id\":0,"
                + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + McpCaller.CLASSIC_VERSION
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"load\",\"version\":\"1\"}}}")
                .getBytes(StandardCharsets.UTF_8));
            String session = init.header("mcp-session-id");
            if (session == null) {
              throw new IOException("initialize failed: " + init.status() + " " + init.text());
            }
            headers = HttpConnection.headers("Mcp-Session-Id", session, "MCP-Protocol-Version",
                McpCaller.CLASSIC_VERSION);
            connection.post(headers, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
                .getBytes(StandardCharsets.UTF_8));
          }
        } catch (IOException e) {
          connection.close();
          throw new java.io.UncheckedIOException(e);
        }
        byte[] h = headers;
        java.util.EnumMap<Kind, byte[]> perTool = new java.util.EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
          perTool.put(kind, HttpConnection.headers("MCP-Protocol-Version", McpCaller.MODERN_VERSION,
              "Mcp-Method", "tools/call", "Mcp-Name", kind.tool));
        }
        return new Client() {
          @Override
          public String call(long id, Kind kind, String body) throws IOException {
            HttpConnection.Response r = connection.post(h == null ? perTool.get(kind) : h,
                body.getBytes(StandardCharsets.UTF_8));
            if (r.status() != 200) {
              throw new IOException("HTTP " + r.status() + " for request " + id + ": " + r.text());
            }
            return r.json();
          }

          @Override
          public void close() {
            connection.close();
          }
        };
      });
    }
  }

  /** One stdio connection (in-process pipes), {@code clients} threads with one call in flight each. */
  private static Outcome stdio(FusionServer server, int clients, int calls) throws Exception {
    Pipe input = Pipe.open();
    Pipe output = Pipe.open();
    OutputStream toServer = Channels.newOutputStream(input.sink());
    OutputStream serverOut = Channels.newOutputStream(output.sink());
    BufferedReader fromServer = new BufferedReader(new InputStreamReader(
        Channels.newInputStream(output.source()), StandardCharsets.UTF_8), 64 * 1024);
    StdioTransport transport = new StdioTransport(Channels.newInputStream(input.source()), serverOut,
        server.edge(), Duration.ofSeconds(30));
    Thread serving = new Thread(() -> {
      try {
        transport.serve();
        serverOut.close();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, "load-stdio-server");
    serving.start();
    Map<Long, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();
    List<String> strays = java.util.Collections.synchronizedList(new ArrayList<>());
    Object writeLock = new Object();
    toServer.write(("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
        + McpCaller.CLASSIC_VERSION + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"load\",\"version\":\"1\"}}}\n"
        + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n").getBytes(StandardCharsets.UTF_8));
    toServer.flush();
    String init = fromServer.readLine();
    if (init == null || !init.contains("\"result\"")) {
      throw new IOException("initialize over stdio failed: " + init);
    }
    Thread reader = new Thread(() -> {
      try {
        for (String line = fromServer.readLine(); line != null; line = fromServer.readLine()) {
          Matcher m = ID.matcher(line);
          CompletableFuture<String> f = m.find() ? waiting.remove(Long.parseLong(m.group(1))) : null;
          if (f == null) {
            strays.add(line);
          } else {
            f.complete(line);
          }
        }
      } catch (IOException e) {
        strays.add("reader failed: " + e);
      }
    }, "load-stdio-reader");
    reader.start();
    Outcome outcome = drive(clients, calls, false, client -> new Client() {
      @Override
      public String call(long id, Kind kind, String body) throws IOException {
        CompletableFuture<String> reply = new CompletableFuture<>();
        waiting.put(id, reply);
        synchronized (writeLock) {
          toServer.write((body + "\n").getBytes(StandardCharsets.UTF_8));
          toServer.flush();
        }
        try {
          return reply.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
          throw new IOException("no reply to request " + id + " within 30 s", e);
        }
      }

      @Override
      public void close() {
      }
    });
    toServer.close();
    serving.join(30_000);
    reader.join(30_000);
    for (String stray : strays.subList(0, Math.min(10, strays.size()))) {
      outcome.violations.add("a reply nobody waited for (a second or late reply): " + abbreviate(stray));
    }
    if (transport.peakThreads() > transport.maxThreads()) {
      outcome.violations.add("stdio ran " + transport.peakThreads() + " threads, over its bound "
          + transport.maxThreads());
    }
    System.out.printf("stdio threads: peak %d of at most %d%n", transport.peakThreads(), transport.maxThreads());
    return outcome;
  }
}
