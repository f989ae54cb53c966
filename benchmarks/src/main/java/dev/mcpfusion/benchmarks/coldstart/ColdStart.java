package dev.mcpfusion.benchmarks.coldstart;

import dev.mcpfusion.json.Json;
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
 * runs interleaved (sample, hello, sample, …) so load drift hits both alike. Configurations: the
 * default JVM and a dynamic AppCDS archive ({@code -XX:ArchiveClassesAtExit} on a training run, then
 * {@code -XX:SharedArchiveFile}) on the JVM running this harness; with a JDK 25 ({@code --jdk25 DIR},
 * else {@code $JAVA25_HOME}), also its default JVM and its AOT cache (JEP 483/514:
 * {@code -XX:AOTCacheOutput} on a training run, then {@code -XX:AOTCache}). Each row also reports the
 * median CPU time (user + system, all threads) the server process had used when the answer arrived:
 * on a shared machine it moves less with the load than the wall-clock time does. With AppCDS, a row
 * for the README's launch: the sample from the archive its {@code package} wrote beside the jar.
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.coldstart.ColdStart
 *     [--runs 10] [--sample samples/billing/target/fusion-sample-billing.jar] [--cds-dir DIR]
 *     [--no-cds] [--jdk25 DIR | --no-jdk25] [--compare OTHER-BUILD/fusion-sample-billing.jar]</pre>
 *
 * <p>{@code --compare} adds a second build of the sample (e.g. the one before a change) to the same
 * interleaved runs, so a before/after comparison sees the same load.
 */
public final class ColdStart {
  private static final String HELLO_MAIN = PlainSdkHelloServer.class.getName();
  private static final long TIMEOUT_SECONDS = 60;

  private ColdStart() {}

  /** One server to start: the command after {@code java [jvm options]}. */
  private record Subject(String name, List<String> launch) {}

  /** One measured start: wall-clock and CPU milliseconds to the {@code tools/list} answer. */
  private record Timing(double millis, double cpuMillis) {}

  public static void main(String[] args) throws Exception {
    int runs = 10;
    Path sampleJar = Path.of("samples/billing/target/fusion-sample-billing.jar");
    Path cdsDir = null;
    boolean cds = true;
    String jdk25 = System.getenv("JAVA25_HOME");
    String jdk25From = "$JAVA25_HOME";
    Path compareJar = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--sample" -> sampleJar = Path.of(args[++i]);
        case "--cds-dir" -> cdsDir = Path.of(args[++i]);
        case "--no-cds" -> cds = false;
        case "--jdk25" -> {
          jdk25 = args[++i];
          jdk25From = "--jdk25";
        }
        case "--compare" -> compareJar = Path.of(args[++i]);
        case "--no-jdk25" -> {
          jdk25 = null;
          jdk25From = "--no-jdk25";
        }
        default -> {
          System.err.println("Unknown option '" + args[i] + "'. Usage: ColdStart [--runs N] "
              + "[--sample PATH/fusion-sample-billing.jar] [--cds-dir DIR] [--no-cds] "
              + "[--jdk25 DIR | --no-jdk25] [--compare OTHER/fusion-sample-billing.jar]");
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
    List<Subject> subjects = new ArrayList<>();
    subjects.add(new Subject("billing sample (FusionServer.serveStdio)",
        List.of("-jar", sampleJar.toAbsolutePath().toString())));
    if (compareJar != null) {
      if (!Files.isRegularFile(compareJar)) {
        System.err.println("No jar to compare at " + compareJar.toAbsolutePath());
        System.exit(2);
      }
      subjects.add(new Subject("billing sample, " + compareJar,
          List.of("-jar", compareJar.toAbsolutePath().toString())));
    }
    // The baseline comes last: ratios are over its medians.
    subjects.add(new Subject("plain SDK hello-world (StdioServerTransportProvider)",
        List.of("-cp", ownJar.toString(), HELLO_MAIN)));
    Path dir = cdsDir != null ? Files.createDirectories(cdsDir) : Files.createTempDirectory("fusion-cds");
    String harnessJava = javaExecutable();
    String java25 = jdk25Executable(jdk25, jdk25From);

    System.out.println("started " + java.time.Instant.now() + "; java: " + harnessJava + " ("
        + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
        + ")" + (java25 == null ? "" : ", JDK 25: " + java25) + ", runs per cell: " + runs
        + ", load average at start: " + loadAverage());
    System.out.println();
    System.out.println("| configuration | server | median ms | min ms | max ms | median CPU ms | runs "
        + "| median / plain SDK median | CPU median / plain SDK CPU median |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    String harnessJdk = "JDK " + Runtime.version().feature();
    measure(harnessJdk + " default JVM", harnessJava, subjects, List.of(), runs);

    if (cds) {
      List<List<String>> options = new ArrayList<>();
      for (int i = 0; i < subjects.size(); i++) {
        Path archive = dir.resolve("server-" + i + ".jsa");
        Files.deleteIfExists(archive);
        // Training run: one full session, then a normal exit dumps the archive.
        session(harnessJava, subjects.get(i), List.of("-XX:ArchiveClassesAtExit=" + archive), true);
        if (!Files.isRegularFile(archive)) {
          throw new IllegalStateException("no CDS archive written at " + archive);
        }
        options.add(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
      }
      measure(harnessJdk + " AppCDS (dynamic archive)", harnessJava, subjects, options, runs);
      // The README's launch: the archive the sample's package wrote (only this JDK build's fits),
      // and the flags of the README's client config; the other servers keep their own archives.
      Path built = sampleJar.resolveSibling("fusion-sample-billing.jsa");
      if (Files.isRegularFile(built)) {
        List<List<String>> readme = new ArrayList<>(options);
        readme.set(0, List.of("-XX:SharedArchiveFile=" + built.toAbsolutePath(), "-Xshare:auto",
            "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.1",
            "-Xlog:disable", "-Xlog:all=warning:stderr"));
        measure(harnessJdk + " README launch (the archive package wrote)", harnessJava, subjects,
            readme, runs);
      } else {
        System.out.println("README launch row skipped: no " + built + " (package writes it)");
      }
    }

    if (java25 != null) {
      measure("JDK 25 default JVM", java25, subjects, List.of(), runs);
      List<List<String>> options = new ArrayList<>();
      for (int i = 0; i < subjects.size(); i++) {
        Path cache = dir.resolve("server-" + i + ".aot");
        Files.deleteIfExists(cache);
        // Training run (JEP 514): one full session; at exit the JVM records what it loaded and
        // linked and starts a second JVM that assembles the cache.
        session(java25, subjects.get(i), List.of("-XX:AOTCacheOutput=" + cache), true);
        if (!Files.isRegularFile(cache)) {
          throw new IllegalStateException("no AOT cache written at " + cache);
        }
        options.add(List.of("-XX:AOTCache=" + cache));
      }
      measure("JDK 25 AOT cache", java25, subjects, options, runs);
    }
    System.out.println();
    System.out.println("ended " + java.time.Instant.now() + "; load average at end: " + loadAverage());
  }

  /**
   * The {@code java} of the JDK 25 in {@code home}, or {@code null} (with the reason on stderr and
   * in the output) when there is none, so the JDK 25 rows are skipped rather than failing the run.
   */
  private static String jdk25Executable(String home, String from) throws IOException {
    if (home == null || home.isBlank()) {
      System.out.println("JDK 25 rows skipped: no JDK 25 given (" + from + "; pass --jdk25 DIR or "
          + "set JAVA25_HOME, e.g. /usr/lib/jvm/temurin-25-jdk-amd64).");
      System.out.println();
      return null;
    }
    Path java = Path.of(home, "bin", "java");
    Path release = Path.of(home, "release");
    String version = Files.isRegularFile(release)
        ? Files.readAllLines(release).stream().filter(l -> l.startsWith("JAVA_VERSION="))
            .map(l -> l.substring("JAVA_VERSION=".length()).replace("\"", ""))
            .findFirst().orElse("")
        : "";
    int feature;
    try {
      feature = Integer.parseInt(version.split("[.+-]")[0]);
    } catch (NumberFormatException e) {
      feature = -1;
    }
    if (!Files.isExecutable(java) || feature < 25) {
      System.out.println("JDK 25 rows skipped: " + home + " (from " + from + ") is not a JDK 25+ "
          + "(no bin/java, or JAVA_VERSION in release is '" + version + "').");
      System.out.println();
      return null;
    }
    return java.toString();
  }

  private static void measure(String configuration, String java, List<Subject> subjects,
      List<List<String>> options, int runs) throws Exception {
    Timing[][] timings = new Timing[subjects.size()][runs];
    // One unmeasured start each warms the OS page cache for the jars.
    for (int s = 0; s < subjects.size(); s++) {
      session(java, subjects.get(s), options.isEmpty() ? List.of() : options.get(s), false);
    }
    for (int r = 0; r < runs; r++) {
      for (int s = 0; s < subjects.size(); s++) {
        timings[s][r] = session(java, subjects.get(s),
            options.isEmpty() ? List.of() : options.get(s), false);
      }
    }
    double[][] sorted = new double[subjects.size()][];
    double[] cpu = new double[subjects.size()];
    for (int s = 0; s < subjects.size(); s++) {
      sorted[s] = Arrays.stream(timings[s]).mapToDouble(Timing::millis).sorted().toArray();
      cpu[s] = median(Arrays.stream(timings[s]).mapToDouble(Timing::cpuMillis).sorted().toArray());
    }
    // The ratios go on the sample's row: its medians over the plain SDK server's medians.
    int base = sorted.length - 1;
    double baseline = median(sorted[base]);
    for (int s = 0; s < subjects.size(); s++) {
      double m = median(sorted[s]);
      String ratio = s == base ? "1 (baseline)" : String.format(Locale.ROOT, "%.3f", m / baseline);
      String cpuRatio = s == base || Double.isNaN(cpu[base]) ? "1 (baseline)"
          : String.format(Locale.ROOT, "%.3f", cpu[s] / cpu[base]);
      System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f | %.0f | %d | %s | %s |%n",
          configuration, subjects.get(s).name(), m, sorted[s][0], sorted[s][sorted[s].length - 1],
          cpu[s], runs, ratio, cpuRatio);
    }
  }

  /**
   * Starts the server, runs initialize + tools/list, returns the time from start to the
   * tools/list answer; {@code graceful}: then closes stdin (and, if it keeps running, sends
   * SIGTERM) and waits for a normal exit, which is when the JVM writes a CDS archive or AOT cache.
   */
  private static Timing session(String java, Subject subject, List<String> jvmOptions,
      boolean graceful) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(java);
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
      // CPU of all the server's threads so far (Linux: /proc/PID/stat); NaN where unsupported.
      double cpuMillis = process.toHandle().info().totalCpuDuration()
          .map(d -> d.toNanos() / 1_000_000.0).orElse(Double.NaN);
      if (!(listed.get("result") instanceof Map<?, ?> result)
          || !(result.get("tools") instanceof List<?> tools) || tools.isEmpty()) {
        throw new IllegalStateException(subject.name() + " answered tools/list without tools: " + listed);
      }
      if (graceful) {
        in.close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroy(); // SIGTERM: a normal JVM exit, so the archive or cache is still written
        }
        // An AOT cache is assembled by a second JVM after the first exits; give it time.
        process.waitFor(3 * TIMEOUT_SECONDS, TimeUnit.SECONDS);
      }
      return new Timing((end - start) / 1_000_000.0, cpuMillis);
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
