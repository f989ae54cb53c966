package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The README's client launch (the {@code args} of its JSON config, the placeholder made this
 * checkout's path) against the jar and class-data archive that {@code package} built: with the
 * archive most classes come from it; with no file at the archive's path, a corrupt file, or the
 * archive of an earlier build of the jar, the JVM ignores it. Every time the server answers
 * {@code initialize} and {@code tools/list}, writes nothing but JSON-RPC on stdout (a JVM warning
 * there would break the transport) and exits cleanly when stdin closes. Behaviour, not timing: the
 * class-load log of each child JVM says where every class came from.
 *
 * <p>Runs after {@code package} (this module's surefire execution {@code archived-launch}), since
 * the jar and its archive do not exist before.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ArchivedLaunchTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Path BUILD =
      Path.of(System.getProperty("fusion.buildDir", "target")).toAbsolutePath().normalize();
  private static final Path ROOT = Path.of(System.getProperty("fusion.basedir", "."))
      .toAbsolutePath().resolve("../..").normalize();
  private static final Path JAR = BUILD.resolve("fusion-sample-billing.jar");
  private static final Path ARCHIVE = BUILD.resolve("fusion-sample-billing.jsa");
  private static final String PLACEHOLDER = "/ABSOLUTE/PATH/TO/samples/billing/target/";
  private static final String ARCHIVE_OPTION = "-XX:SharedArchiveFile=";
  /** A class loaded from the archive {@code package} wrote (the top layer over the JDK's own). */
  private static final String FROM_THE_BUILD_ARCHIVE = "shared objects file (top)";
  private static final Pattern LOADED = Pattern.compile("\\[class,load\\] (\\S+) source: (.*)$");
  private static final List<String> SESSION = List.of(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"archived-launch\",\"version\":\"1\"}}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");

  private static List<String> launch;

  @TempDir Path temp;

  /** One served session: stdout's lines, stderr, and each loaded class with its source. */
  private record Session(List<String> stdout, String stderr, Map<String, String> sources) {
    long from(String source) {
      return sources.values().stream().filter(s -> s.startsWith(source)).count();
    }
  }

  @BeforeAll
  static void readTheReadmeLaunch() throws IOException {
    // A focused -Dtest run reaches the test phase too, where the jar is the last build's, if any.
    assumeTrue(Boolean.getBoolean("fusion.afterPackage"),
        "runs in the archived-launch execution, after package");
    assertThat(JAR).as("the jar package builds; this test runs after package").isRegularFile();
    assertThat(ARCHIVE).as("the archive package writes (-Dfusion.cds.skip=true skips both)")
        .isRegularFile();
    launch = readmeLaunch();
    assertThat(launch).as("the README's launch names the archive and the jar package built")
        .contains(ARCHIVE_OPTION + ARCHIVE, JAR.toString());
    assertThat(launch).as("the README's launch picks the serial collector and C1 alone (fast-start.md)")
        .contains("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.1");
  }

  @Test
  void theReadmeLaunchLoadsTheConnectorFromTheArchiveThePackageBuilt() throws Exception {
    Session session = serve(launch);

    assertThat(session.sources()).containsEntry(BillingMain.class.getName(), FROM_THE_BUILD_ARCHIVE)
        .containsEntry("dev.mcpfusion.core.edge.ClassicEra", FROM_THE_BUILD_ARCHIVE);
    long shared = session.from("shared objects file");
    assertThat(shared).as("classes from an archive, of %d loaded", session.sources().size())
        .isGreaterThan(session.sources().size() * 9L / 10);
    long fromJar = session.sources().size() - shared;
    assertThat(session.from(FROM_THE_BUILD_ARCHIVE))
        .as("classes from the build's archive, against %d read from the jar or made at run time",
            fromJar)
        .isGreaterThan(5 * fromJar);
  }

  @Test
  void withNoFileAtTheArchivePathTheLaunchServesWithoutIt() throws Exception {
    Session session = serve(withArchive(temp.resolve("no-such.jsa"), JAR));
    assertThat(session.from(FROM_THE_BUILD_ARCHIVE)).isZero();
  }

  /**
   * A damaged header or an empty file. Not a truncated archive: JDK 17 maps past the end of the
   * file and dies of SIGBUS (docs/guide/fast-start.md), so the build only ever renames a finished
   * archive onto the launch's path.
   */
  @Test
  void aCorruptArchiveIsIgnored() throws Exception {
    byte[] garbage = Files.readAllBytes(ARCHIVE);
    for (int i = 0; i < garbage.length; i += 7) {
      garbage[i] ^= 0x5a;
    }
    Path scrambled = Files.write(temp.resolve("scrambled.jsa"), garbage);
    assertThat(serve(withArchive(scrambled, JAR)).from(FROM_THE_BUILD_ARCHIVE)).isZero();

    Path empty = Files.write(temp.resolve("empty.jsa"), new byte[0]);
    assertThat(serve(withArchive(empty, JAR)).from(FROM_THE_BUILD_ARCHIVE)).isZero();
  }

  @Test
  void theArchiveOfAnEarlierBuildOfTheJarIsIgnored() throws Exception {
    Path jar = Files.copy(JAR, Files.createDirectories(temp.resolve("app")).resolve(JAR.getFileName()));
    Path archive = temp.resolve("app/earlier.jsa");
    train(jar, archive);
    // Fresh, the archive serves this jar: what the next start ignores is the change alone.
    assertThat(serve(withArchive(archive, jar)).sources())
        .containsEntry(BillingMain.class.getName(), FROM_THE_BUILD_ARCHIVE);

    // The jar built again: same path, a new time stamp (the JVM checks the jar's time and size).
    Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
    Session session = serve(withArchive(archive, jar));
    assertThat(session.from(FROM_THE_BUILD_ARCHIVE)).as("classes served by the stale archive").isZero();
  }

  /** The README's config for the sample: its {@code args}, the placeholder made this build's path. */
  @SuppressWarnings("unchecked")
  private static List<String> readmeLaunch() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher block = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    while (block.find()) {
      if (!block.group(1).contains("\"mcpServers\"") || !block.group(1).contains(PLACEHOLDER)) {
        continue;
      }
      Map<String, Object> config = JSON.readValue(block.group(1), Map.class);
      Map<String, Object> servers = (Map<String, Object>) config.get("mcpServers");
      Map<String, Object> billing = (Map<String, Object>) servers.values().iterator().next();
      assertThat(billing.get("command")).isEqualTo("java");
      List<String> args = new ArrayList<>();
      for (Object arg : (List<Object>) billing.get("args")) {
        args.add(((String) arg).replace(PLACEHOLDER, BUILD + "/"));
      }
      return args;
    }
    throw new AssertionError("README.md has no client config whose args hold " + PLACEHOLDER);
  }

  /** The README's launch with another archive path and jar. */
  private static List<String> withArchive(Path archive, Path jar) {
    List<String> args = new ArrayList<>();
    for (String arg : launch) {
      args.add(arg.startsWith(ARCHIVE_OPTION) ? ARCHIVE_OPTION + archive
          : arg.equals(JAR.toString()) ? jar.toString() : arg);
    }
    return args;
  }

  /** The training the build runs, on another jar: one session, then the archive at exit. */
  private void train(Path jar, Path archive) throws Exception {
    Path errors = temp.resolve("training.err");
    Process process = new ProcessBuilder(java(), "-XX:ArchiveClassesAtExit=" + archive,
        "-Xlog:disable", "-Xlog:all=warning:stderr", "-jar", jar.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(errors.toFile())
        .start();
    try (OutputStream stdin = process.getOutputStream()) {
      for (String line : SESSION) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("training ended").isTrue();
    assertThat(process.exitValue()).as("training's exit; stderr:%n%s", Files.readString(errors)).isZero();
    assertThat(archive).isRegularFile();
  }

  /**
   * Starts {@code java ARGS} (a class-load log added before {@code -jar}), serves the session,
   * closes stdin; checks every stdout line is a JSON-RPC answer, the two answers, a clean exit.
   */
  private Session serve(List<String> args) throws Exception {
    Path classLog = Files.createTempFile(temp, "classes", ".log");
    Path errors = Files.createTempFile(temp, "stderr", ".log");
    List<String> command = new ArrayList<>(List.of(java()));
    int jarAt = args.indexOf("-jar");
    command.addAll(args.subList(0, jarAt));
    command.add("-Xlog:class+load=info:file=" + classLog);
    command.addAll(args.subList(jarAt, args.size()));
    Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    try (OutputStream stdin = process.getOutputStream()) {
      for (String line : SESSION) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
      }
    }
    List<String> stdout = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        stdout.add(line);
      }
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exit after stdin closed: %s", command).isTrue();
    String stderr = Files.readString(errors);
    assertThat(process.exitValue()).as("exit code of %s; stderr:%n%s", command, stderr).isZero();
    assertThat(stdout).as("stdout of %s (stderr:%n%s)", command, stderr).hasSize(2);
    for (String line : stdout) {
      @SuppressWarnings("unchecked")
      Map<String, Object> message = JSON.readValue(line, Map.class);
      assertThat(message).as("a JSON-RPC answer on stdout: %s", line)
          .containsEntry("jsonrpc", "2.0").containsKey("result").doesNotContainKey("error");
    }
    assertThat(stdout.get(0)).contains("\"id\":1").contains("\"serverInfo\"");
    assertThat(stdout.get(1)).contains("\"id\":2").contains("billing_get_invoice");

    Map<String, String> sources = new java.util.LinkedHashMap<>();
    for (String line : Files.readAllLines(classLog)) {
      Matcher m = LOADED.matcher(line);
      if (m.find()) {
        sources.put(m.group(1), m.group(2));
      }
    }
    assertThat(sources).as("the class-load log of %s", command).containsKey(BillingMain.class.getName());
    return new Session(stdout, stderr, sources);
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
