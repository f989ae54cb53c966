package dev.mcpfusion.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private {@code redis-server} for one test class: started on a free loopback port before the
 * class's first test, with persistence off, and stopped after its last. A test may {@link #stop}
 * it and {@link #start} it again on the same port (Redis down, then back); {@link #perTest()} makes
 * one that each test finds running and empty, whatever the test before it did to it.
 *
 * <p>The binary is taken from {@code PATH}; when it is missing, {@code .ci/redis.sh} installs it
 * from the distribution's packages (the CI gate also runs it first). If it cannot, the tests fail,
 * saying so; they never skip, so a missing server cannot pass for a green build.
 */
public final class LocalRedis
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private static final long START_TIMEOUT_MS = 10_000;

  private final boolean perTest;

  private int port;
  private Path dir;
  private Process process;

  /** One server for the class's tests, in whatever state the last test left it. */
  public LocalRedis() {
    this(false);
  }

  private LocalRedis(boolean perTest) {
    this.perTest = perTest;
  }

  /**
   * One server for the class's tests, started (if a test stopped it) and emptied before each test,
   * and started again after each (after the class's own {@code @AfterEach} methods).
   */
  public static LocalRedis perTest() {
    return new LocalRedis(true);
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (perTest) {
      start();
      flushAll();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (perTest) {
      start();
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    dir = Files.createTempDirectory("fusion-redis-test");
    port = freePort();
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    stop();
    deleteTree(dir);
  }

  /** Deletes {@code dir} and everything in it (a test's temporary directory, once it is done). */
  public static void deleteTree(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** The URL a client connects with, {@code redis://127.0.0.1:<port>}. */
  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** Starts the server (on the same port as before, if it ran) and waits until it answers PING. */
  public synchronized void start() throws IOException, InterruptedException {
    if (process != null && process.isAlive()) {
      return;
    }
    List<String> command = List.of(binary(), "--port", String.valueOf(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no");
    Path log = dir.resolve("redis.log");
    process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
    while (!answersPing()) {
      if (!process.isAlive() || System.currentTimeMillis() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("redis-server did not start on 127.0.0.1:" + port
            + " within " + START_TIMEOUT_MS + " ms; its log:\n" + Files.readString(log));
      }
      Thread.sleep(20);
    }
  }

  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits until it is gone. */
  public synchronized void stop() throws InterruptedException {
    if (process == null) {
      return;
    }
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    process = null;
  }

  /** Deletes every key (between tests that must not see each other's state). */
  public void flushAll() throws IOException {
    String answer = command("FLUSHALL");
    if (!answer.startsWith("+OK")) {
      throw new IllegalStateException("FLUSHALL answered " + answer);
    }
  }

  private boolean answersPing() {
    try {
      return command("PING").startsWith("+PONG");
    } catch (IOException notYet) {
      return false;
    }
  }

  /** Sends one inline command and reads the first line of the answer. */
  private String command(String inline) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
      socket.setSoTimeout(1_000);
      OutputStream out = socket.getOutputStream();
      out.write((inline + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) >= 0 && c != '\n') {
        line.append((char) c);
      }
      return line.toString().trim();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * The redis-server on PATH; when there is none, the project's own {@code .ci/redis.sh} installs
   * it from the distribution's packages (once per JVM), so {@code mvn verify} on a clean machine
   * needs nothing installed by hand. A failure says what the script printed and how to fix it.
   */
  private static synchronized String binary() {
    String found = onPath();
    if (found != null) {
      return found;
    }
    Path script = null;
    for (Path dir = Path.of("").toAbsolutePath(); dir != null && script == null; dir = dir.getParent()) {
      Path candidate = dir.resolve(".ci/redis.sh");
      script = Files.isRegularFile(candidate) ? candidate : null;
    }
    String output = "";
    if (script != null && !installTried) {
      installTried = true;
      try {
        Process install = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        output = new String(install.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        install.waitFor();
      } catch (java.io.IOException e) {
        output = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      found = onPath();
      if (found != null) {
        return found;
      }
    }
    throw new IllegalStateException("redis-server is not on PATH and .ci/redis.sh could not install "
        + "it: the fusion-redis tests run against a real Redis. Install the Debian package "
        + "redis-server (as root: apt-get install redis-server), then run the tests again."
        + (output.isBlank() ? "" : " The script said: " + output.strip()));
  }

  private static boolean installTried;

  private static String onPath() {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String entry : path.split(java.io.File.pathSeparator)) {
        Path candidate = Path.of(entry, "redis-server");
        if (Files.isExecutable(candidate)) {
          return candidate.toString();
        }
      }
    }
    return null;
  }
}
