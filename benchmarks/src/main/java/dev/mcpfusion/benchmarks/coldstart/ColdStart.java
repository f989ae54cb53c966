package dev.mcpfusion.benchmarks.coldstart;

import dev.mcpfusion.core.json.Json;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark 5: cold start over stdio, process start to the first {@code tools/list} answered,
 * measured the way a client sees it: start {@code java}, send {@code initialize}, wait for its
 * answer, send {@code notifications/initialized} and {@code tools/list}, stop the clock when the
 * {@code tools/list} answer arrives. The billing sample's jar against {@link PlainSdkHelloServer},
 * runs interleaved (sample, hello, sample, …) so load drift hits both alike; with the default JVM
 * and with a dynamic AppCDS archive (JDK 13+: {@code -XX:ArchiveClassesAtExit} on a training run,
 * then {@code -XX:SharedArchiveFile}).
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.coldstart.ColdStart
 *     [--runs 10] [--sample samples/billing/target/fusion-sample-billing.jar] [--cds-dir DIR] [--no-cds]</pre>
 */
public final class ColdStart {
  private static final String HELLO_MAIN = PlainSdkHelloServer.class.getName();
  private static final long TIMEOUT_SECONDS = 60;

  private ColdStart() {}

  /** One server to start: the command after {@code java [jvm options]}. */
  private record Subject(String name, List<String> launch) {}

  public static void main(String[] args) throws Exception {
    int runs = 10;
    Path sampleJar = Path.of("samples/billing/target/fusion-sample-billing.jar");
    Path cdsDir = null;
    boolean cds = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--sample" -> sampleJar = Path.of(args[++i]);
        case "--cds-dir" -> cdsDir = Path.of(args[++i]);
        case "--no-cds" -> cds = false;
        default -> {
          System.err.println("Unknown option '" + args[i] + "'. Usage: ColdStart [--runs N] "
              + "[--sample PATH/fusion-sample-billing.jar] [--cds-dir DIR] [--no-cds]");
          System.exit(2);
        }
      }
    }
    if (!Files.isRegularFile(sampleJar)) {
      System.err.println("No sample jar at " + sampleJar.toAbsolutePath()
          + ": build it (mvn -B -q -pl samples/billing -am package -DskipTests) or pass --sample");
      System.exit(2);
    }
    Path ownJar = ownJar();
    List<Subject> subjects = List.of(
        new Subject("billing sample (FusionServer.serveStdio)",
            List.of("-jar", sampleJar.toAbsolutePath().toString())),
        new Subject("plain SDK hello-world (StdioServerTransportProvider)",
            List.of("-cp", ownJar.toString(), HELLO_MAIN)));

    System.out.println("started " + java.time.Instant.now() + "; java: " + javaExecutable() + " (" + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version") + "), runs per cell: " + runs
        + ", load average at start: " + loadAverage());
    System.out.println();
    System.out.println("| configuration | server | median ms | min ms | max ms | runs | median / plain SDK median |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|");
    measure("default JVM", subjects, List.of(), runs);

    if (cds) {
      Path dir = cdsDir != null ? Files.createDirectories(cdsDir) : Files.createTempDirectory("fusion-cds");
      List<Subject> archived = new ArrayList<>();
      List<List<String>> options = new ArrayList<>();
      for (int i = 0; i < subjects.size(); i++) {
        Path archive = dir.resolve("server-" + i + ".jsa");
        Files.deleteIfExists(archive);
        // Training run: one full session, then a normal exit dumps the archive.
        session(subjects.get(i), List.of("-XX:ArchiveClassesAtExit=" + archive), true);
        if (!Files.isRegularFile(archive)) {
          throw new IllegalStateException("no CDS archive written at " + archive);
        }
        archived.add(subjects.get(i));
        options.add(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
      }
      measure("AppCDS (dynamic archive)", archived, options, runs);
    }
    System.out.println();
    System.out.println("ended " + java.time.Instant.now() + "; load average at end: " + loadAverage());
  }

  private static void measure(String configuration, List<Subject> subjects,
      List<List<String>> options, int runs) throws Exception {
    double[][] millis = new double[subjects.size()][runs];
    // One unmeasured start each warms the OS page cache for the jars.
    for (int s = 0; s < subjects.size(); s++) {
      session(subjects.get(s), options.isEmpty() ? List.of() : options.get(s), false);
    }
    for (int r = 0; r < runs; r++) {
      for (int s = 0; s < subjects.size(); s++) {
        millis[s][r] = session(subjects.get(s), options.isEmpty() ? List.of() : options.get(s), false);
      }
    }
    double[][] sorted = new double[subjects.size()][];
    for (int s = 0; s < subjects.size(); s++) {
      sorted[s] = millis[s].clone();
      Arrays.sort(sorted[s]);
    }
    // The ratio goes on the sample's row: its median over the plain SDK server's median.
    double baseline = median(sorted[sorted.length - 1]);
    for (int s = 0; s < subjects.size(); s++) {
      double m = median(sorted[s]);
      String ratio = s == subjects.size() - 1 ? "1 (baseline)"
          : String.format(Locale.ROOT, "%.3f", m / baseline);
      System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f | %d | %s |%n", configuration,
          subjects.get(s).name(), m, sorted[s][0], sorted[s][sorted[s].length - 1], runs, ratio);
    }
  }

  /** Starts the server, runs initialize + tools/list, returns milliseconds from start to the tools/list answer. */
  private static double session(Subject subject, List<String> jvmOptions, boolean graceful)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable());
    command.addAll(jvmOptions);
    command.addAll(subject.launch());
    File errors = File.createTempFile("coldstart", ".err");
    errors.deleteOnExit();
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.to(errors));
    long start = System.nanoTime();
    Process process = builder.start();
    try {
      OutputStream in = process.getOutputStream();
      BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"coldstart\",\"version\":\"1.0.0\"}}}");
      awaitResponse(out, 1, subject, errors);
      send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}");
      Map<?, ?> listed = awaitResponse(out, 2, subject, errors);
      long end = System.nanoTime();
      if (!(listed.get("result") instanceof Map<?, ?> result)
          || !(result.get("tools") instanceof List<?> tools) || tools.isEmpty()) {
        throw new IllegalStateException(subject.name() + " answered tools/list without tools: " + listed);
      }
      if (graceful) {
        in.close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroy(); // SIGTERM: a normal JVM exit, so an -XX:ArchiveClassesAtExit dump still happens
        }
        process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      }
      return (end - start) / 1_000_000.0;
    } finally {
      if (process.isAlive()) {
        process.destroyForcibly();
        process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      }
    }
  }

  private static void send(OutputStream in, String line) throws IOException {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  private static Map<?, ?> awaitResponse(BufferedReader out, long id, Subject subject, File errors)
      throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    String line;
    while ((line = out.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      Object message = Json.parse(line);
      if (message instanceof Map<?, ?> map && map.get("id") instanceof Number n && n.longValue() == id) {
        if (map.containsKey("error")) {
          throw new IllegalStateException(subject.name() + " answered an error: " + line);
        }
        return map;
      }
      if (System.nanoTime() > deadline) {
        break;
      }
    }
    throw new IllegalStateException(subject.name() + " closed stdout before answering request " + id
        + "; stderr: " + Files.readString(errors.toPath()));
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Path ownJar() throws URISyntaxException {
    return Path.of(ColdStart.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
