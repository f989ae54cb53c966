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
 * affinity, each of 16 clients with its own 2025-era session sending 5,000 mixed calls, all of
 * them within {@link #BOUND}. First through one instance (a shorter load, for the calls per second
 * of one); then through three,
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
 * <p>Besides: the calls of {@code probe_work} (one in ten, three progress notifications each) run
 * under a fleet-wide budget of {@link #BUDGET}, and the most running at once inside the handlers
 * across the instances, from their own records, is at most the budget ({@link FleetWatch#mostAtOnce});
 * a stream cut by its client on the instance later killed resumes through a survivor with every
 * event it missed, once each, in order, then the request's retryable error saying its instance
 * stopped ({@link FleetWatch.CutStream}); a {@code probe_work} stream cut by the kill is resumed
 * by its client the same way and ends with its result or that error ({@link Outcome#GONE},
 * retryable, not lost); and after the load a
 * subscriber whose stream is on one instance hears of a mutation made through another.
 *
 * It prints calls/s with one and three instances, p50/p99 latency and the failover after the
 * kill; those are measurements, never asserted.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
class FleetTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private static final int CLIENTS = Integer.getInteger("fleet.clients", 16);
  private static final int CALLS = Integer.getInteger("fleet.calls", 5000);
  private static final int SOLO_CALLS = Integer.getInteger("fleet.soloCalls", 1000);
  /** The one-instance load's time bound: it measures calls/s, and need not send them all. */
  private static final Duration SOLO_BOUND = Duration.ofSeconds(20);
  /**
   * The time bound of the three-instance load, within which it must send all its calls (16 ×
   * 5,000). On this 2-core machine the run is CPU-bound, not waiting on Redis: the test's 16
   * clients (one JVM, a new connection per call), three or four instance JVMs (one of them
   * starting mid-run; about 40% of their CPU in a run this short is their JIT compilers') and
   * HAProxy share the two cores (Redis takes about 3% of the CPU), and the whole run
   * measured 510–740 calls/s, so 80,000 calls take 110–160 s: 180 s leaves a margin. Past it the
   * clients stop and the test fails, saying how many were sent.
   */
  private static final Duration BOUND = Duration.ofSeconds(Long.getLong("fleet.seconds", 180));
  /** The fleet-wide budget of {@code probe_work} calls running at once. */
  private static final int BUDGET = Integer.getInteger("fleet.budget", 4);
  /** The events of the cut stream its client reads before it goes away. */
  private static final int CUT = 5;

  private final List<Node> nodes = new ArrayList<>();

  /** One instance: its process, port, journal and stderr. */
  private record Node(Process process, int port, Path journal, Path runs, Path stderr,
      long startedAt) {
    boolean listening() throws IOException {
      return Files.readString(stderr).contains("listening on ");
    }
  }

  @AfterEach
  void stop() throws InterruptedException, IOException {
    for (Node node : nodes) {
      node.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      LocalRedis.deleteTree(node.journal.getParent());
    }
  }

  private Node start(int port, int invoices) throws IOException {
    Path dir = Files.createTempDirectory("fleet-node");
    Path journal = dir.resolve("journal.txt");
    Path stderr = dir.resolve("stderr.txt");
    Path runs = dir.resolve("runs.txt");
    Files.createFile(journal);
    Files.createFile(runs);
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-Xlog:disable", "-Xlog:all=warning:stderr",
        "-cp", System.getProperty("java.class.path"), FleetNode.class.getName(),
        String.valueOf(port), REDIS.url(), journal.toString(), String.valueOf(invoices),
        runs.toString(), String.valueOf(BUDGET));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(stderr.toFile()).start();
    Node node = new Node(process, port, journal, runs, stderr, System.nanoTime());
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
    // One invoice per mutation of the loads, and the last for the subscriber's mutation.
    int invoices = CLIENTS * CALLS + CLIENTS * SOLO_CALLS + 1;
    List<Integer> ports = List.of(freePort(), freePort(), freePort(), freePort());
    Node first = start(ports.get(0), invoices);
    awaitListening(first);

    FleetLoad solo;
    try (Haproxy lb = Haproxy.start(freePort(), ports.subList(0, 1))) {
      lb.awaitUp(1, Duration.ofSeconds(60));
      solo = new FleetLoad(lb.endpoint(), CLIENTS, SOLO_CALLS, FleetNode.FIRST_INVOICE + CLIENTS * CALLS,
          "solo-", SOLO_BOUND).start();
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
    FleetWatch.CutStream cut;
    List<FleetWatch.Event> resumed;
    try (Haproxy lb = Haproxy.start(freePort(), ports)) {
      lb.awaitUp(3, Duration.ofSeconds(60));
      // A long progress stream on the instance about to be killed, its client gone after CUT events.
      cut = new FleetWatch.CutStream(first.port, CUT);
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
      // The cut stream's client comes back after the kill, through the load balancer.
      resumed = cut.resume(lb.endpoint(), 40);
      lbLog = lb.unusualLog(60);
    }
    int mostAtOnce = FleetWatch.mostAtOnce(nodes.stream().map(Node::runs).toList(), first.runs,
        killedAt);
    List<String> heard = List.of();
    if (replacement != null) {
      awaitListening(replacement);
      heard = subscriberHearsAMutationThroughAnother(third, replacement, "INV-"
          + (FleetNode.FIRST_INVOICE + invoices - 1));
    }

    if (killedAt != 0 && drainedAt != 0) {
      report(solo, load, killedAt, drainedAt, replacement, replacementReadyAt);
    }
    System.out.printf("FLEET budget %d probe_work calls at once: at most %d ran at once inside the"
        + " handlers across the instances; %d were refused SERVER_BUSY with a retry hint%n", BUDGET,
        mostAtOnce, load.count(Outcome.BUSY));
    List<Long> replayed = resumed.stream().map(FleetWatch::progress).filter(step -> step >= 0)
        .toList();
    String ending = resumed.isEmpty() ? "nothing" : resumed.get(resumed.size() - 1).data();
    System.out.printf("FLEET the stream cut after %d events on the killed instance resumed through"
        + " a survivor with %d more progress events, %s, then: %s%n", CUT, replayed.size(),
        replayed.isEmpty() ? "none" : replayed.get(0) + " to " + replayed.get(replayed.size() - 1),
        ending);
    System.out.printf("FLEET probe_work streams cut by the kill and resumed through a survivor: %d;"
        + " %d ended with the instance-gone error, the last %s after the kill%n", load.resumed.get(),
        load.gone.size(), load.gone.isEmpty() ? "-" : String.format("%.1f s",
            (load.gone.stream().mapToLong(Long::longValue).max().orElse(0) - killedAt) / 1e9));
    List<String> closed = load.closed(killing, killedAt);
    String problems = String.join("\n", load.problems) + "\n" + String.join("\n", closed)
        + "\nHAProxy's log, the requests not answered 200:\n" + String.join("\n", lbLog);
    assertThat(load.sent()).as("calls sent by the %d clients within the bound of %s", CLIENTS,
        BOUND).isEqualTo(load.total());
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
    assertThat(mostAtOnce).as("probe_work calls inside the handlers at once, across instances")
        .isBetween(1, BUDGET);
    assertThat(replayed).as("the cut stream resumed on a survivor: every event it missed, once,"
        + " in order, up to the kill").isNotEmpty()
        .isEqualTo(java.util.stream.LongStream.rangeClosed(CUT + 1, CUT + replayed.size()).boxed()
            .toList());
    assertThat(resumed).as("after its progress, one last event").hasSize(replayed.size() + 1);
    assertThat(ending).as("the cut stream ends with its request's retryable error: its instance"
        + " died").startsWith("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32003,"
        + "\"message\":\"Server busy: the server instance that ran this request stopped before it"
        + " replied").endsWith("\"data\":{\"code\":\"SERVER_BUSY\",\"outcome\":\"unknown\","
        + "\"retryAfterSeconds\":1}}}");
    assertThat(heard).as("the stream on one instance hears the mutation made through another")
        .containsExactly("billing://invoices/INV-" + (FleetNode.FIRST_INVOICE + invoices - 1));

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

  /**
   * A subscriber whose event stream is on {@code streamOn}, subscribed through {@code other}, and
   * a mutation of the invoice made through {@code other} by another session: the URIs of the
   * updates the stream receives before the first (each event is awaited, never timed).
   */
  private static List<String> subscriberHearsAMutationThroughAnother(Node streamOn, Node other,
      String invoice) throws Exception {
    String there = FleetWatch.url(other.port);
    String subscriber = FleetWatch.initialize(FleetWatch.url(streamOn.port));
    String editor = FleetWatch.initialize(there);
    List<String> heard = new ArrayList<>();
    try (FleetWatch.Stream stream = new FleetWatch.Stream(FleetWatch.request(
        FleetWatch.url(streamOn.port), subscriber, null).build())) {
      assertThat(FleetWatch.post(there, subscriber, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
          + "\"resources/subscribe\",\"params\":{\"uri\":\"billing://invoices/" + invoice + "\"}}"))
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
      assertThat(FleetWatch.post(there, editor, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":"
          + "\"tools/call\",\"params\":{\"name\":\"billing_void_invoice\",\"arguments\":{"
          + "\"id\":\"" + invoice + "\"}}}")).contains(invoice).doesNotContain("\"isError\":true");
      FleetWatch.Event event = stream.next();
      assertThat(event).as("an event on the subscriber's stream").isNotNull();
      heard.add(event.data().replaceAll(".*\"notifications/resources/updated\".*\"uri\":\"([^\"]+)\".*",
          "$1"));
    }
    return heard;
  }

  private static void report(FleetLoad solo, FleetLoad load, long killedAt, long drainedAt,
      Node replacement, long replacementReadyAt) {
    long[] soloSpan = solo.span();
    double[] soloLatency = solo.latencyMs(Long.MIN_VALUE, Long.MAX_VALUE, 50, 99);
    long[] span = load.span();
    double[] latency = load.latencyMs(Long.MIN_VALUE, Long.MAX_VALUE, 50, 99);
    double[] steady = load.latencyMs(span[0], killedAt, 50, 99);
    // The budget's refusals (BUSY) happen all through the run: they are not failures of the fleet.
    long failedAfterKill = load.started(killedAt, drainedAt) - load.count(Outcome.OK, killedAt, drainedAt)
        - load.count(Outcome.BUSY, killedAt, drainedAt);
    long lastFailure = load.lastFailureEnd(killedAt, drainedAt);
    long failedAfterDrain = load.started(drainedAt, Long.MAX_VALUE)
        - load.count(Outcome.OK, drainedAt, Long.MAX_VALUE) - load.count(Outcome.BUSY, drainedAt, Long.MAX_VALUE);
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
    System.out.printf("FLEET %d of %d calls sent within the time bound of %d s%n", load.sent(),
        load.total(), BOUND.toSeconds());
  }

  private static double seconds(long[] span) {
    return (span[1] - span[0]) / 1e9;
  }
}
