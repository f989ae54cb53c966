package dev.mcpfusion.benchmarks.wire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The processes of the wire benchmarks: starting a server (and reading the port it listens on
 * from its stderr), stopping it, and what {@code /proc} says of a process and of the machine.
 */
final class WireProcesses {
  private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");

  private WireProcesses() {}

  /** utime + stime of a process in clock ticks (USER_HZ, 100 on Linux); 0 where /proc is absent. */
  static long cpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Voluntary + involuntary context switches summed over a process's live threads. */
  static long contextSwitches(long pid) {
    long sum = 0;
    try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
              sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
          }
        } catch (IOException threadEnded) {
          // The thread exited between the listing and the read.
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return sum;
  }

  static long clientCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  static Process spawn(List<String> command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    // Tracing off on both sides; the sample reads it from the environment.
    builder.environment().remove("FUSION_TRACE");
    builder.redirectError(ProcessBuilder.Redirect.PIPE);
    Process process = builder.start();
    drain(process, new ArrayDeque<>(), null);
    return process;
  }

  static WireBenchmark.Server startHttp(String name, List<String> command, String classicPath, String modernPath)
      throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("FUSION_TRACE");
    // Only stderr is read (for the listening line); a server logging to stdout must never block on it.
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    process.getOutputStream().close();
    Deque<String> stderr = new ArrayDeque<>();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    drain(process, stderr, port);
    int p;
    try {
      p = port.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IllegalStateException(name + " server did not start: " + String.join("\n", stderr), e);
    }
    System.err.printf("%s server pid %d on port %d%n", name, process.pid(), p);
    return new WireBenchmark.Server(name, process, p, classicPath, modernPath, stderr);
  }

  /** Reads a child's stderr (keeping the last lines) so it never blocks on a full pipe. */
  private static void drain(Process process, Deque<String> last, CompletableFuture<Integer> port) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
          StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          synchronized (last) {
            last.addLast(line);
            if (last.size() > 50) {
              last.removeFirst();
            }
          }
          Matcher m = LISTENING.matcher(line);
          if (port != null && m.find()) {
            port.complete(Integer.parseInt(m.group(1)));
          }
        }
      } catch (IOException ignored) {
        // The process ended.
      }
      if (port != null) {
        port.completeExceptionally(new IOException("stderr closed before the server listened"));
      }
    }, "wire-stderr");
    t.setDaemon(true);
    t.start();
  }

  static void stop(WireBenchmark.Server server) throws InterruptedException {
    server.process().destroy();
    if (!server.process().waitFor(15, TimeUnit.SECONDS)) {
      server.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  static String jarOfThisClass() {
    try {
      return Path.of(WireBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (Exception e) {
      return "benchmarks/target/benchmarks.jar";
    }
  }

  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "n/a";
    }
  }

  static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name")).findFirst()
          .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("n/a");
    } catch (IOException e) {
      return "n/a";
    }
  }
}
