package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.redis.LocalRedis;
import dev.mcpfusion.samples.billing.FleetLoad.Outcome;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fleet acceptance test: HAProxy (the distribution's package, {@code .ci/haproxy.sh}) in
 * front of billing instances ({@link FleetNode}) on one Redis, round-robin with no session
 * affinity, each of 16 clients with its own 2025-era session sending 5,000 mixed calls (bounded
 * in time too). First through one instance, for the calls per second of one; then through three,
 * and mid-run one instance is killed (SIGKILL), later another is drained (SIGTERM) and a
 * replacement started. HAProxy waits for its health checks to see every instance up before a load
 * starts.
 *
 * <p>The contract, call by call: every call gets an answer, and it is its own answer or a 503 with
 * {@code Retry-After} (an instance draining; or HAProxy answering for an instance that died under
 * the call, or for none being up); never a hang, a 404 (lost session), another call's answer, or a
 * connection closed without an answer. A call in flight on the instance at the moment it is
 * SIGKILLed cannot be answered by that instance: HAProxy answers it, since each call has its own
 * client connection (see {@link Haproxy}). Nothing is sent again once an instance received it
 * (HAProxy retries only a refused connection; the clients retry nothing), so no mutation can run
 * twice: every mutation answered success was carried out exactly once, every other at most once
 * (it may have run before its instance died; the instances' journals, written before the answer,
 * tell, and the test prints how many did).
 *
 * It prints calls/s with one and three instances, p50/p99 latency and the failover after the
 * kill; those are measurements, never asserted.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FleetTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private static final int CLIENTS = Integer.getInteger("fleet.clients", 16);
  private static final int CALLS = Integer.getInteger("fleet.calls", 5000);
  private static final int SOLO_CALLS = Integer.getInteger("fleet.soloCalls", 1000);
  private static final Duration BOUND = Duration.ofSeconds(Long.getLong("fleet.seconds", 80));

  private final List<Node> nodes = new ArrayList<>();

  /** One instance: its process, port, journal and stderr. */
  private record Node(Process process, int port, Path journal, Path stderr, long startedAt) {
    boolean listening() throws IOException {
      return Files.readString(stderr).contains("listening on ");
    }
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Node node : nodes) {
      node.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private Node start(int port, int invoices) throws IOException {
    Path dir = Files.createTempDirectory("fleet-node");
    Path journal = dir.resolve("journal.txt");
    Path stderr = dir.resolve("stderr.txt");
    Files.createFile(journal);
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-Xlog:disable", "-Xlog:all=warning:stderr",
        "-cp", System.getProperty("java.class.path"), FleetNode.class.getName(),
        String.valueOf(port), REDIS.url(), journal.toString(), String.valueOf(invoices));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(stderr.toFile()).start();
    Node node = new Node(process, port, journal, stderr, System.nanoTime());
    nodes.add(node);
    return node;
  }

  private static void awaitListening(Node... started) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    for (Node node : started) {
      while (!node.listening()) {
        if (!node.process.isAlive() || System.nanoTime() > deadline) {
          throw new AssertionError("instance on port " + node.port + " did not start:\n"
              + Files.readString(node.stderr));
        }
        Thread.sleep(25);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void threeInstancesBehindHaproxyAnswerEveryCallOnceThroughAKillAndADrain() throws Exception {
    Haproxy.binary(); // fails first, naming .ci/haproxy.sh, when HAProxy cannot be had
    int invoices = CLIENTS * CALLS + CLIENTS * SOLO_CALLS;
    List<Integer> ports = List.of(freePort(), freePort(), freePort(), freePort());
    Node first = start(ports.get(0), invoices);
    awaitListening(first);

    FleetLoad solo;
    try (Haproxy lb = Haproxy.start(freePort(), ports.subList(0, 1))) {
      lb.awaitUp(1, Duration.ofSeconds(60));
      solo = new FleetLoad(lb.endpoint(), CLIENTS, SOLO_CALLS, FleetNode.FIRST_INVOICE + CLIENTS * CALLS,
          "solo-", BOUND.dividedBy(4)).start();
      solo.join();
    }
    assertThat(solo.problems).as("one instance: every call its own answer").isEmpty();
    assertThat(solo.count(Outcome.CLOSED)).as("one instance: no connection closed").isZero();

    Node second = start(ports.get(1), invoices);
    Node third = start(ports.get(2), invoices);
    awaitListening(second, third);

    FleetLoad load;
    long killedAt = 0;
    long killing = 0;
    long drainedAt = 0;
    List<String> lbLog;
    Node replacement = null;
    long replacementReadyAt = 0;
    try (Haproxy lb = Haproxy.start(freePort(), ports)) {
      lb.awaitUp(3, Duration.ofSeconds(60));
      load = new FleetLoad(lb.endpoint(), CLIENTS, CALLS, FleetNode.FIRST_INVOICE, "fleet-", BOUND)
          .start();
      long began = System.nanoTime();
      long deadline = began + BOUND.toNanos() + TimeUnit.SECONDS.toNanos(60);
      while (!load.finished() && System.nanoTime() < deadline) {
        long elapsed = System.nanoTime() - began;
        if (killedAt == 0 && (load.done() >= load.total() / 4 || elapsed > BOUND.toNanos() / 4)) {
          killing = System.nanoTime();
          first.process.destroyForcibly(); // SIGKILL: no drain, its sessions and calls just stop
          killedAt = System.nanoTime();
        } else if (killedAt != 0 && drainedAt == 0
            && (load.done() >= load.total() / 2 || elapsed > BOUND.toNanos() / 2)) {
          second.process.destroy(); // SIGTERM: the instance drains
          drainedAt = System.nanoTime();
          replacement = start(ports.get(3), invoices);
        } else if (replacement != null && replacementReadyAt == 0 && replacement.listening()) {
          replacementReadyAt = System.nanoTime();
        }
        Thread.sleep(10);
      }
      load.join();
      lbLog = lb.unusualLog(60);
    }

    if (killedAt != 0 && drainedAt != 0) {
      report(solo, load, killedAt, drainedAt, replacement, replacementReadyAt);
    }
    List<String> closed = load.closed(killing, killedAt);
    String problems = String.join("\n", load.problems) + "\n" + String.join("\n", closed)
        + "\nHAProxy's log, the requests not answered 200:\n" + String.join("\n", lbLog);
    assertThat(killedAt).as("the kill happened while the clients ran").isPositive();
    assertThat(drainedAt).as("the drain happened while the clients ran").isPositive();
    assertThat(second.process.waitFor(60, TimeUnit.SECONDS)).as("the drained instance exits").isTrue();
    assertThat(load.count(Outcome.NO_ANSWER)).as("calls without an answer:\n%s", problems).isZero();
    assertThat(load.count(Outcome.SESSION_LOST)).as("sessions lost:\n%s", problems).isZero();
    assertThat(load.count(Outcome.WRONG)).as("wrong or crossed answers:\n%s", problems).isZero();
    assertThat(closed).as("connections closed without an answer:\n%s", problems).isEmpty();
    assertThat(load.problems).as(problems).isEmpty();
    assertThat(load.clientsServedAfter(drainedAt))
        .as("every session is served after the kill and the drain").isEqualTo(CLIENTS);

    Map<String, Integer> executed = new HashMap<>();
    for (Node node : nodes) {
      for (String operation : Files.readAllLines(node.journal)) {
        executed.merge(operation, 1, Integer::sum);
      }
    }
    for (Map.Entry<String, Outcome> mutation : load.mutations.entrySet()) {
      int times = executed.getOrDefault(mutation.getKey(), 0);
      if (mutation.getValue() == Outcome.OK) {
        assertThat(times).as("mutation %s answered success: carried out once", mutation.getKey())
            .isEqualTo(1);
      } else {
        assertThat(times).as("mutation %s answered %s: never twice", mutation.getKey(),
            mutation.getValue()).isLessThanOrEqualTo(1);
      }
    }
    assertThat(executed.values()).as("no mutation carried out twice").allMatch(times -> times == 1);
    System.out.printf("FLEET mutations: %d answered success, each carried out exactly once; %d "
        + "answered 503, of which %d were carried out before their instance died%n",
        load.mutations.values().stream().filter(o -> o == Outcome.OK).count(),
        load.mutations.values().stream().filter(o -> o != Outcome.OK).count(),
        load.mutations.entrySet().stream().filter(e -> e.getValue() != Outcome.OK
            && executed.containsKey(e.getKey())).count());
  }

  private static void report(FleetLoad solo, FleetLoad load, long killedAt, long drainedAt,
      Node replacement, long replacementReadyAt) {
    long[] soloSpan = solo.span();
    double[] soloLatency = solo.latencyMs(Long.MIN_VALUE, Long.MAX_VALUE, 50, 99);
    long[] span = load.span();
    double[] latency = load.latencyMs(Long.MIN_VALUE, Long.MAX_VALUE, 50, 99);
    double[] steady = load.latencyMs(span[0], killedAt, 50, 99);
    long failedAfterKill = load.started(killedAt, drainedAt) - load.count(Outcome.OK, killedAt, drainedAt);
    long lastFailure = load.lastFailureEnd(killedAt, drainedAt);
    long failedAfterDrain = load.started(drainedAt, Long.MAX_VALUE)
        - load.count(Outcome.OK, drainedAt, Long.MAX_VALUE);
    System.out.printf("FLEET %d clients, loopback, HAProxy round-robin without affinity, one Redis%n",
        CLIENTS);
    System.out.printf("FLEET 1 instance: %d calls in %.1f s = %.0f calls/s; p50 %.2f ms, p99 %.2f ms%n",
        solo.sent(), seconds(soloSpan), solo.sent() / seconds(soloSpan), soloLatency[0], soloLatency[1]);
    System.out.printf("FLEET 3 instances before the kill: %d calls = %.0f calls/s; p50 %.2f ms, p99 %.2f ms%n",
        load.started(span[0], killedAt), load.started(span[0], killedAt) / ((killedAt - span[0]) / 1e9),
        steady[0], steady[1]);
    System.out.printf("FLEET whole run (kill, drain, replacement): %d calls in %.1f s = %.0f calls/s; "
        + "p50 %.2f ms, p99 %.2f ms; %d answered 503 + Retry-After; %d closed without an answer%n",
        load.sent(), seconds(span), load.sent() / seconds(span), latency[0], latency[1],
        load.count(Outcome.RETRYABLE), load.count(Outcome.CLOSED));
    System.out.printf("FLEET SIGKILL at +%.1f s: %d calls failed cleanly until the drain; failover "
        + "(kill to the end of the last call failed before the drain) %s%n", (killedAt - span[0]) / 1e9, failedAfterKill,
        lastFailure == 0 ? "0 ms (no call failed)" : String.format("%.0f ms", (lastFailure - killedAt) / 1e6));
    System.out.printf("FLEET SIGTERM (drain) at +%.1f s: %d calls answered 503 + Retry-After after it; "
        + "replacement listening %.1f s after its start%n", (drainedAt - span[0]) / 1e9, failedAfterDrain,
        replacementReadyAt == 0 ? Double.NaN : (replacementReadyAt - replacement.startedAt()) / 1e9);
    System.out.printf("FLEET %d of %d calls sent within the time bound%n", load.sent(),
        load.total());
  }

  private static double seconds(long[] span) {
    return (span[1] - span[0]) / 1e9;
  }
}
