package dev.mcpfusion.samples.billing;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private HAProxy for {@link FleetTest}, on a free loopback port, in front of instances on
 * loopback: round-robin with no session affinity, each instance checked on {@code /health/ready}
 * every 500 ms (out after three failures, back after two successes, a check may take 5 s: on a
 * loaded machine a slow answer is not a dead instance). A request whose connection to an instance
 * is refused is sent to another (nothing was sent yet, so nothing can run twice); a request an
 * instance received is never sent again. Every request has its own client connection and its own
 * connection to an instance ({@code option httpclose}): HAProxy closes a kept-alive client
 * connection without an answer when the instance dies under its second or later request (so that
 * a browser retries it), which would turn a clean 502 (answered as the 503 below) into a silent
 * close. When an instance dies under a request, or none is up, the answer is a 503 with
 * {@code Retry-After: 1} and a JSON-RPC error body, as the instances' own drain answers. Each
 * request is logged ({@code option httplog}) to a file the test prints from when it fails. The
 * binary comes from the distribution's package, installed by {@code .ci/haproxy.sh} when missing.
 */
final class Haproxy implements AutoCloseable {
  static final String RETRY_BODY = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,"
      + "\"message\":\"Service Unavailable: no instance could answer this request; retry after 1 "
      + "second.\"}}";

  private final Process process;
  private final int port;
  private final Path log;
  private final Path stats;

  private Haproxy(Process process, int port, Path log, Path stats) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.stats = stats;
  }

  /** Starts HAProxy on {@code port} in front of the instances listening (or to listen) on {@code backends}. */
  static Haproxy start(int port, List<Integer> backends) throws Exception {
    String binary = binary();
    Path dir = Files.createTempDirectory("fleet-haproxy");
    byte[] body = RETRY_BODY.getBytes(StandardCharsets.UTF_8);
    Path retry = dir.resolve("503.http");
    Files.writeString(retry, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        + "Retry-After: 1\r\nCache-Control: no-cache\r\nConnection: close\r\nContent-Length: "
        + body.length + "\r\n\r\n" + RETRY_BODY);
    StringBuilder config = new StringBuilder("""
        global
          maxconn 1024
          log stderr format raw local0 info
          stats socket STATS mode 600 level admin
        defaults
          mode http
          log global
          option httplog
          timeout connect 2s
          timeout client 30s
          timeout server 20s
          timeout check 5s
          retries 3
          option redispatch 1
          retry-on conn-failure
          option httpclose
          http-reuse never
        """.replace("STATS", dir.resolve("stats.sock").toString()));
    for (int status : new int[] {502, 503, 504}) {
      config.append("  errorfile ").append(status).append(' ').append(retry).append('\n');
    }
    config.append("frontend mcp\n  bind 127.0.0.1:").append(port).append("\n  default_backend billing\n")
        .append("backend billing\n  balance roundrobin\n  option httpchk GET /health/ready\n")
        .append("  http-request set-header Host billing\n")
        .append("  default-server check inter 500ms fall 3 rise 2\n");
    for (int i = 0; i < backends.size(); i++) {
      config.append("  server n").append(i).append(" 127.0.0.1:").append(backends.get(i)).append('\n');
    }
    Path file = dir.resolve("haproxy.cfg");
    Files.writeString(file, config);
    Path log = dir.resolve("haproxy.log");
    Process checked = new ProcessBuilder(binary, "-c", "-q", "-f", file.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!checked.waitFor(30, TimeUnit.SECONDS) || checked.exitValue() != 0) {
      String refused = Files.readString(log);
      dev.mcpfusion.redis.LocalRedis.deleteTree(dir);
      throw new IllegalStateException("haproxy refused its configuration:\n" + config + "\n"
          + refused);
    }
    // no -q here: it silences the request log too
    Process process = new ProcessBuilder(binary, "-db", "-f", file.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!listening(port)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        String failed = Files.readString(log);
        dev.mcpfusion.redis.LocalRedis.deleteTree(dir);
        throw new IllegalStateException("haproxy did not start on 127.0.0.1:" + port + ":\n"
            + failed);
      }
      Thread.sleep(20);
    }
    return new Haproxy(process, port, log, dir.resolve("stats.sock"));
  }

  /**
   * Waits until HAProxy's own health checks see {@code servers} instances UP (its stats socket,
   * {@code show stat}), so that a load starts on the fleet it means to measure.
   */
  void awaitUp(int servers, Duration bound) throws Exception {
    long deadline = System.nanoTime() + bound.toNanos();
    String stat = "";
    while (System.nanoTime() < deadline) {
      stat = command("show stat");
      long up = stat.lines().filter(line -> line.startsWith("billing,n"))
          .filter(line -> line.split(",", -1)[17].equals("UP")).count();
      if (up >= servers) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("HAProxy did not see " + servers + " instances UP within "
        + bound + ":\n" + stat);
  }

  /** One command on HAProxy's stats socket, and what it answered. */
  private String command(String line) throws IOException {
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(stats))) {
      channel.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.US_ASCII)));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (channel.read(buffer) > 0) {
        out.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      return out.toString(StandardCharsets.US_ASCII);
    }
  }

  /**
   * How the requests that were not answered 200 or 202 ended, from HAProxy's log (its status, its
   * termination state and timers name who closed what), at most {@code max} lines.
   */
  List<String> unusualLog(int max) throws IOException {
    return Files.readAllLines(log).stream()
        .filter(line -> !line.contains(" 200 ") && !line.contains(" 202 ")).limit(max).toList();
  }

  String endpoint() {
    return "http://127.0.0.1:" + port + "/mcp";
  }

  @Override
  public void close() throws InterruptedException, IOException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    dev.mcpfusion.redis.LocalRedis.deleteTree(log.getParent());
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException notYet) {
      return false;
    }
  }

  /**
   * The haproxy binary ({@code PATH}, then {@code /usr/sbin} where Debian puts it); when there is
   * none, the project's {@code .ci/haproxy.sh} installs the distribution's package. A failure
   * names the script and what it said.
   */
  static synchronized String binary() throws Exception {
    String found = find();
    if (found != null) {
      return found;
    }
    Path script = null;
    for (Path d = Path.of("").toAbsolutePath(); d != null && script == null; d = d.getParent()) {
      Path candidate = d.resolve(".ci/haproxy.sh");
      script = Files.isRegularFile(candidate) ? candidate : null;
    }
    String output = "no .ci/haproxy.sh found above " + Path.of("").toAbsolutePath();
    if (script != null) {
      Process install = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
      output = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      install.waitFor(600, TimeUnit.SECONDS);
      found = find();
      if (found != null) {
        return found;
      }
    }
    throw new IllegalStateException("haproxy is not installed and .ci/haproxy.sh could not install "
        + "it: the fleet test runs a real HAProxy. Run .ci/haproxy.sh as root (it installs the "
        + "Debian package haproxy), then run the test again. The script said: " + output.strip());
  }

  private static String find() {
    String path = System.getenv("PATH");
    String dirs = (path == null ? "" : path + File.pathSeparator) + "/usr/sbin";
    for (String entry : dirs.split(File.pathSeparator)) {
      Path candidate = Path.of(entry, "haproxy");
      if (!entry.isEmpty() && Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }
}
