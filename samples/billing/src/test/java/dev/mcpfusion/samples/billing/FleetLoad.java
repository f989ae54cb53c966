package dev.mcpfusion.samples.billing;

import dev.mcpfusion.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * The clients of {@link FleetTest}: each opens its own 2025-era session through one endpoint (the
 * load balancer) and sends a fixed mix of calls, one at a time, bounded in count and in time: per
 * ten calls, four reads of an invoice, a {@code probe_work} that streams {@value #STEPS} progress
 * notifications before its result (under the fleet-wide budget: it may be refused with
 * {@code SERVER_BUSY}), two mutations (each voids its own invoice, named by the
 * {@link FleetNode#OPERATION} header), a {@code tools/list}, a {@code resources/read} and a
 * {@code ping}. Each call's outcome and timing are kept; nothing is retried, so every call has
 * exactly one recorded outcome: its answer, or a connection closed without one. A stream cut
 * without its reply is resumed with {@code Last-Event-ID} (not retried: the call is not sent
 * again).
 */
final class FleetLoad {
  /** What one call got. */
  enum Outcome {
    /** Its own answer: the JSON-RPC id it sent, a result, no error. */
    OK,
    /** 503 with {@code Retry-After}: a clean error the client may retry. */
    RETRYABLE,
    /** A {@code SERVER_BUSY} tool error with a {@code retry_after}: the fleet-wide budget was full. */
    BUSY,
    /**
     * A streamed call whose instance died under it, resumed on a survivor: the error saying the
     * call may or may not have taken effect, with when to retry (a clean error the client may
     * retry, after checking what a mutation changes).
     */
    GONE,
    /** 404: the session was not found (it must survive any instance). */
    SESSION_LOST,
    /** Any other answer: a wrong status, another call's id, an error result. */
    WRONG,
    /**
     * The connection closed before any answer: to a client, a transport failure it may retry (a
     * mutation among them may or may not have run). Behind HAProxy the test accepts none: HAProxy
     * answers for an instance that died under a call.
     */
    CLOSED,
    /** No answer within the request timeout (a hang), or the client was interrupted. */
    NO_ANSWER
  }

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(25);
  /** How long a client resumes a stream cut by its instance's death before it gives up. */
  private static final Duration RESUME_BOUND = Duration.ofSeconds(60);
  /** The progress notifications of each {@code probe_work}. */
  static final int STEPS = 3;
  private static final Outcome[] OUTCOMES = Outcome.values();

  private final URI endpoint;
  private final int clients;
  private final int calls;
  private final int invoiceBase;
  private final String prefix;
  private final long deadline;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final AtomicLong done = new AtomicLong();
  private final long[][] starts;
  private final long[][] ends;
  private final byte[][] outcomes;
  private final int[] sent;
  /** Mutation id → what its call got. */
  final Map<String, Outcome> mutations = new ConcurrentHashMap<>();
  /** Streams cut by their instance's death and resumed through the load balancer. */
  final AtomicLong resumed = new AtomicLong();
  /** When each resumed stream ended with the instance-gone error (nanoTime). */
  final ConcurrentLinkedQueue<Long> gone = new ConcurrentLinkedQueue<>();
  /** What went wrong, for the failure message (the first few of each client). */
  final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
  private final List<Thread> threads = new ArrayList<>();

  /**
   * @param invoiceBase the number of the first invoice these clients' mutations void
   * @param prefix what the mutation ids of this load start with
   * @param bound how long the clients may send calls (each finishes its call in flight)
   */
  FleetLoad(String endpoint, int clients, int calls, int invoiceBase, String prefix, Duration bound) {
    this.endpoint = URI.create(endpoint);
    this.clients = clients;
    this.calls = calls;
    this.invoiceBase = invoiceBase;
    this.prefix = prefix;
    this.deadline = System.nanoTime() + bound.toNanos();
    this.starts = new long[clients][calls];
    this.ends = new long[clients][calls];
    this.outcomes = new byte[clients][calls];
    this.sent = new int[clients];
  }

  /** Starts the clients. */
  FleetLoad start() {
    for (int c = 0; c < clients; c++) {
      int client = c;
      Thread thread = new Thread(() -> client(client), "fleet-client-" + c);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    return this;
  }

  /** Waits for the clients: each stops at its last call or at the time bound. */
  void join() throws InterruptedException {
    long slack = System.nanoTime() + REQUEST_TIMEOUT.toNanos() * 2;
    for (Thread thread : threads) {
      thread.join(Math.max(1, (Math.max(deadline, slack) - System.nanoTime()) / 1_000_000));
      if (thread.isAlive()) {
        problems.add(thread.getName() + " did not finish within the bound");
      }
    }
  }

  boolean finished() {
    return threads.stream().noneMatch(Thread::isAlive);
  }

  long done() {
    return done.get();
  }

  long total() {
    return (long) clients * calls;
  }

  private void client(int c) {
    String session = initialize(c);
    if (session == null) {
      return;
    }
    for (int i = 0; i < calls && System.nanoTime() < deadline; i++) {
      int id = i + 2;
      String operation = null;
      String body = switch (i % 10) {
        case 5, 6 -> {
          operation = prefix + c + "-" + i;
          yield call(id, "billing_void_invoice", "INV-" + (invoiceBase + c * calls + i));
        }
        case 7 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}";
        case 8 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"resources/read\",\"params\":"
            + "{\"uri\":\"billing://invoices/INV-0042\"}}";
        case 9 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
        case 4 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
            + "\"name\":\"probe_work\",\"arguments\":{\"steps\":" + STEPS + "},\"_meta\":{"
            + "\"progressToken\":\"p" + id + "\"}}}";
        default -> call(id, "billing_get_invoice", String.format("INV-%04d", 1 + (c * 31 + i) % 1000));
      };
      starts[c][i] = System.nanoTime();
      Outcome outcome = send(c, session, id, body, operation);
      ends[c][i] = System.nanoTime();
      outcomes[c][i] = (byte) outcome.ordinal();
      if (operation != null) {
        mutations.put(operation, outcome);
      }
      sent[c] = i + 1;
      done.incrementAndGet();
    }
  }

  private static String call(int id, String tool, String invoice) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":{\"id\":\"" + invoice + "\"}}}";
  }

  /** Opens the client's session (retrying a 503 within the bound); its id, or null. */
  private String initialize(int c) {
    String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fleet-"
        + c + "\",\"version\":\"1\"}}}";
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> response = http.send(request(null, body, null),
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
          http.send(request(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
              null), HttpResponse.BodyHandlers.discarding());
          return session;
        }
        Thread.sleep(200);
      } catch (IOException | InterruptedException | RuntimeException e) {
        problems.add("client " + c + ": initialize failed: " + e);
        return null;
      }
    }
    problems.add("client " + c + ": no session within the bound");
    return null;
  }

  private HttpRequest request(String session, String body, String operation) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint).timeout(REQUEST_TIMEOUT)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    if (operation != null) {
      builder.header(FleetNode.OPERATION, operation);
    }
    return builder.build();
  }

  private Outcome send(int c, String session, int id, String body, String operation) {
    boolean streams = body.contains("\"probe_work\"");
    HttpResponse<InputStream> response;
    String text;
    try {
      response = http.send(request(session, body, operation), HttpResponse.BodyHandlers.ofInputStream());
      if (streams && response.statusCode() == 200 && response.headers().firstValue("Content-Type")
          .orElse("").startsWith("text/event-stream")) {
        return stream(c, session, id, new FleetWatch.Stream(response).rest());
      }
      try (InputStream in = response.body()) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (HttpTimeoutException e) {
      return problem(c, Outcome.NO_ANSWER, "call " + id + " got no answer within " + REQUEST_TIMEOUT);
    } catch (IOException e) {
      return Outcome.CLOSED; // described by the test against the moment of the kill
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return problem(c, Outcome.NO_ANSWER, "call " + id + " interrupted");
    }
    int status = response.statusCode();
    if (status == 503) {
      return response.headers().firstValue("Retry-After").isPresent() ? Outcome.RETRYABLE
          : problem(c, Outcome.WRONG, "call " + id + ": 503 without Retry-After: " + text);
    }
    if (status == 404) {
      return problem(c, Outcome.SESSION_LOST, "call " + id + ": 404 " + text);
    }
    if (status != 200) {
      return problem(c, Outcome.WRONG, "call " + id + ": " + status + " " + text);
    }
    return judge(c, id, text, streams);
  }

  /**
   * A {@code probe_work} call's event stream. One that ends without a reply was cut by its
   * instance's death (HAProxy had sent the 200, so it cannot answer 503): the client resumes it
   * through the load balancer with the newest event id it received, as a client of a fleet does,
   * until the reply, within {@link #RESUME_BOUND}. The events of every connection are judged
   * together: progress 1, 2, … once each and in order, then the call's own reply — its result, or
   * the retryable error saying that the instance running it stopped ({@link Outcome#GONE}).
   */
  private Outcome stream(int c, String session, int id, List<FleetWatch.Event> events)
      throws InterruptedException {
    boolean cut = !events.isEmpty() && !isReply(events.get(events.size() - 1));
    long until = System.nanoTime() + RESUME_BOUND.toNanos();
    while (!events.isEmpty() && !isReply(events.get(events.size() - 1)) && System.nanoTime() < until) {
      HttpRequest resume = HttpRequest.newBuilder(endpoint).timeout(REQUEST_TIMEOUT)
          .header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
          .header("MCP-Protocol-Version", "2025-11-25")
          .header("Last-Event-ID", events.get(events.size() - 1).id()).GET().build();
      try {
        HttpResponse<InputStream> again = http.send(resume, HttpResponse.BodyHandlers.ofInputStream());
        if (again.statusCode() == 200) {
          events.addAll(new FleetWatch.Stream(again).rest());
        } else {
          String refused;
          try (InputStream in = again.body()) {
            refused = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          }
          if (again.statusCode() != 503) {
            return problem(c, Outcome.WRONG, "call " + id + ": its resume answered "
                + again.statusCode() + " " + refused);
          }
        }
      } catch (IOException e) {
        // The survivor's answer was cut too (the drain): resume again.
      }
      if (!isReply(events.get(events.size() - 1))) {
        Thread.sleep(250);
      }
    }
    if (cut) {
      resumed.incrementAndGet();
    }
    StringBuilder text = new StringBuilder();
    List<Long> progress = new ArrayList<>();
    for (FleetWatch.Event event : events) {
      text.append("id: ").append(event.id()).append("\ndata: ").append(event.data()).append("\n\n");
      long step = FleetWatch.progress(event);
      if (step >= 0) {
        progress.add(step);
      }
    }
    if (events.isEmpty()) {
      return Outcome.CLOSED;
    }
    if (events.stream().map(FleetWatch.Event::id).distinct().count() != events.size()
        || !progress.equals(LongStream.rangeClosed(1, progress.size()).boxed().toList())) {
      return problem(c, Outcome.WRONG, "call " + id + ": events lost or repeated across its "
          + "resumes: " + text);
    }
    FleetWatch.Event last = events.get(events.size() - 1);
    if (!isReply(last)) {
      return problem(c, Outcome.NO_ANSWER, "call " + id + ": its stream was resumed for "
          + RESUME_BOUND + " without a reply: " + text);
    }
    if (last.data().contains("\"error\"")) {
      Object parsed = Json.parse(last.data());
      if (parsed instanceof Map<?, ?> message && message.get("id") instanceof Number answered
          && answered.longValue() == id && message.get("error") instanceof Map<?, ?> error
          && error.get("data") instanceof Map<?, ?> data && "SERVER_BUSY".equals(data.get("code"))
          && "unknown".equals(data.get("outcome")) && data.get("retryAfterSeconds") != null) {
        if (cut) {
          gone.add(System.nanoTime());
        }
        return Outcome.GONE;
      }
      return problem(c, Outcome.WRONG, "call " + id + " failed: " + text);
    }
    return judge(c, id, text.toString(), true);
  }

  /** Whether {@code event} is a reply (a JSON-RPC response), not a notification or a request. */
  private static boolean isReply(FleetWatch.Event event) {
    return !event.data().contains("\"method\"");
  }

  /** A 200's message: its own id, a result, and for a tool call no error result. */
  private Outcome judge(int c, int id, String body, boolean streams) {
    String json = body.strip();
    int progress = 0;
    if (!json.startsWith("{")) { // an event stream: the reply is its last event
      String last = null;
      for (String line : json.split("\n")) {
        if (line.startsWith("data:")) {
          last = line.substring(5).strip();
          progress += last.contains("\"notifications/progress\"") ? 1 : 0;
        }
      }
      json = last == null ? "" : last;
    }
    Object parsed;
    try {
      parsed = Json.parse(json);
    } catch (RuntimeException e) {
      return problem(c, Outcome.WRONG, "call " + id + ": not JSON: " + body);
    }
    if (!(parsed instanceof Map<?, ?> message) || !(message.get("id") instanceof Number answered)
        || answered.longValue() != id) {
      return problem(c, Outcome.WRONG, "call " + id + " got another answer: " + body);
    }
    if (message.get("result") instanceof Map<?, ?> result && Boolean.TRUE.equals(result.get("isError"))
        && String.valueOf(result).contains("code=\"SERVER_BUSY\"")) {
      return String.valueOf(result).contains("<retry_after>") ? Outcome.BUSY
          : problem(c, Outcome.WRONG, "call " + id + ": SERVER_BUSY without a retry hint: " + body);
    }
    if (!(message.get("result") instanceof Map<?, ?> result) || Boolean.TRUE.equals(result.get("isError"))) {
      return problem(c, Outcome.WRONG, "call " + id + " failed: " + body);
    }
    if (streams && progress != STEPS) {
      return problem(c, Outcome.WRONG, "call " + id + " streamed " + progress + " progress "
          + "notifications, not " + STEPS + ": " + body);
    }
    return Outcome.OK;
  }

  private Outcome problem(int c, Outcome outcome, String what) {
    if (problems.size() < 50) {
      problems.add("client " + c + ": " + what);
    }
    return outcome;
  }

  /**
   * The calls whose connection closed without an answer, each described with its start and end
   * relative to the kill, whose signal was sent between {@code before} and {@code after}.
   */
  List<String> closed(long before, long after) {
    long at = after;
    List<String> closed = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      for (int i = 0; i < sent[c]; i++) {
        if (outcomes[c][i] == Outcome.CLOSED.ordinal()) {
          boolean inFlight = starts[c][i] < after && ends[c][i] >= before;
          closed.add(String.format("client %d call %d: closed without an answer, started %+.3f s "
              + "and ended %+.3f s from the kill (%s)", c, i + 2, (starts[c][i] - at) / 1e9,
              (ends[c][i] - at) / 1e9, inFlight ? "in flight at the kill" : "not in flight at it"));
        }
      }
    }
    return closed;
  }

  /** Calls with this outcome, in all. */
  long count(Outcome outcome) {
    return count(outcome, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /** Calls with this outcome started within [from, to) (nanoTime). */
  long count(Outcome outcome, long from, long to) {
    long n = 0;
    for (int c = 0; c < clients; c++) {
      for (int i = 0; i < sent[c]; i++) {
        if (OUTCOMES[outcomes[c][i]] == outcome && starts[c][i] >= from && starts[c][i] < to) {
          n++;
        }
      }
    }
    return n;
  }

  /**
   * When the last call with an outcome other than OK, BUSY (the budget's refusals, which any
   * moment of the run has) or GONE (a cut stream, whose end waits for its instance's lease to
   * lapse: reported on its own), started and ended within [from, to), ended; 0 if none. (A call
   * ending after {@code to} failed for what happened then.)
   */
  long lastFailureEnd(long from, long to) {
    long last = 0;
    for (int c = 0; c < clients; c++) {
      for (int i = 0; i < sent[c]; i++) {
        if (outcomes[c][i] != Outcome.OK.ordinal() && outcomes[c][i] != Outcome.BUSY.ordinal()
            && outcomes[c][i] != Outcome.GONE.ordinal() && starts[c][i] >= from && ends[c][i] < to) {
          last = Math.max(last, ends[c][i]);
        }
      }
    }
    return last;
  }

  /** The clients each of which got an OK answer to a call started at or after {@code from}. */
  int clientsServedAfter(long from) {
    int served = 0;
    for (int c = 0; c < clients; c++) {
      for (int i = sent[c] - 1; i >= 0 && starts[c][i] >= from; i--) {
        if (outcomes[c][i] == Outcome.OK.ordinal()) {
          served++;
          break;
        }
      }
    }
    return served;
  }

  /** Calls answered (any outcome) in all. */
  long sent() {
    return Arrays.stream(sent).asLongStream().sum();
  }

  /** The first call's start and the last call's end (nanoTime). */
  long[] span() {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (int c = 0; c < clients; c++) {
      if (sent[c] > 0) {
        first = Math.min(first, starts[c][0]);
        last = Math.max(last, ends[c][sent[c] - 1]);
      }
    }
    return new long[] {first, last};
  }

  /** Latency percentiles (0–100) of calls started within [from, to), in milliseconds. */
  double[] latencyMs(long from, long to, double... percentiles) {
    long[] all = new long[(int) sent()];
    int n = 0;
    for (int c = 0; c < clients; c++) {
      for (int i = 0; i < sent[c]; i++) {
        if (starts[c][i] >= from && starts[c][i] < to) {
          all[n++] = ends[c][i] - starts[c][i];
        }
      }
    }
    long[] sorted = Arrays.copyOf(all, n);
    Arrays.sort(sorted);
    double[] out = new double[percentiles.length];
    for (int p = 0; p < percentiles.length; p++) {
      int rank = Math.max(0, (int) Math.ceil(percentiles[p] / 100.0 * n) - 1);
      out[p] = n == 0 ? Double.NaN : sorted[Math.min(n - 1, rank)] / 1e6;
    }
    return out;
  }

  /** Calls started within [from, to), counted. */
  long started(long from, long to) {
    long n = 0;
    for (int c = 0; c < clients; c++) {
      for (int i = 0; i < sent[c]; i++) {
        if (starts[c][i] >= from && starts[c][i] < to) {
          n++;
        }
      }
    }
    return n;
  }
}
