package dev.mcpfusion.samples.billing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link FleetTest} watches besides the load's calls: a progress stream cut by the client
 * and resumed on another instance after its own instance was killed, a subscriber that hears of a
 * mutation made through another instance, and the calls running at once under the fleet budget,
 * counted from what the handlers wrote.
 */
final class FleetWatch {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

  private FleetWatch() {}

  /** One server-sent event: its id and data. */
  record Event(String id, String data) {}

  static String url(int port) {
    return "http://127.0.0.1:" + port + "/mcp";
  }

  /** Initialises a 2025-era session through {@code endpoint}; its id. */
  static String initialize(String endpoint) throws IOException, InterruptedException {
    HttpResponse<String> response = HTTP.send(request(endpoint, null, "{\"jsonrpc\":\"2.0\",\"id\":1,"
        + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
        + "{},\"clientInfo\":{\"name\":\"fleet-watch\",\"version\":\"1\"}}}").build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError("initialize answered " + response.statusCode() + ": " + response.body());
    }
    return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  static HttpRequest.Builder request(String endpoint, String session, String body) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(endpoint)).timeout(TIMEOUT)
        .header("Accept", "application/json, text/event-stream");
    if (session != null) {
      builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    return body == null ? builder.GET()
        : builder.header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  static String post(String endpoint, String session, String body)
      throws IOException, InterruptedException {
    return HTTP.send(request(endpoint, session, body).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** An event stream's body, read event by event; closing it cuts the connection. */
  static final class Stream implements AutoCloseable {
    private final InputStream in;
    private final BufferedReader reader;

    Stream(HttpRequest request) throws IOException, InterruptedException {
      this(HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream()));
    }

    /** The body of {@code response}, which must be a 200. */
    Stream(HttpResponse<InputStream> response) throws IOException {
      if (response.statusCode() != 200) {
        throw new AssertionError("the stream answered " + response.statusCode() + ": "
            + new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
      }
      this.in = response.body();
      this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /**
     * Every whole event until the body ends or the connection breaks (a broken connection is a
     * stream cut, to resume; an event cut in the middle was not received).
     */
    List<Event> rest() {
      List<Event> events = new ArrayList<>();
      try {
        for (Event event = next(); event != null; event = next()) {
          events.add(event);
        }
      } catch (IOException cut) {
        // The events read so far are what the client received.
      }
      return events;
    }

    /** The next event with data, or {@code null} when the body ended. */
    Event next() throws IOException {
      String id = null;
      String data = null;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isEmpty() && data != null) {
          return new Event(id, data);
        } else if (line.startsWith("id:")) {
          id = line.substring(3).trim();
        } else if (line.startsWith("data:")) {
          data = line.substring(5).trim();
        }
      }
      return null;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /** The progress number of a {@code notifications/progress} event, or -1 for any other event. */
  static long progress(Event event) {
    return event.data().contains("\"notifications/progress\"")
        ? Long.parseLong(event.data().replaceAll(".*\"progress\":([0-9]+).*", "$1")) : -1;
  }

  /**
   * A {@code probe_stream} call on one instance whose client reads its first {@code cut} events
   * and goes away; the call streams on into the event store on Redis until its instance dies.
   */
  static final class CutStream {
    final String session;
    final Event last;

    CutStream(int port, int cut) throws Exception {
      String endpoint = url(port);
      session = initialize(endpoint);
      String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
          + "\"probe_stream\",\"arguments\":{\"steps\":2000},\"_meta\":{\"progressToken\":\"cut\"}}}";
      Event seen = null;
      try (Stream stream = new Stream(request(endpoint, session, call).build())) {
        for (int i = 1; i <= cut; i++) {
          seen = stream.next();
          if (seen == null || progress(seen) != i) {
            throw new AssertionError("event " + i + " of the stream was " + seen);
          }
        }
      }
      last = seen;
    }

    /**
     * Resumes the stream through {@code endpoint} with {@code Last-Event-ID} until it ends with a
     * reply (its instance was killed: the survivors end it once its lease lapses), resuming
     * again with the newest id received, at most {@code tries} times: every event received.
     */
    List<Event> resume(String endpoint, int tries) throws Exception {
      List<Event> replayed = new ArrayList<>();
      for (int i = 0; i < tries && (replayed.isEmpty() || progress(replayed.get(replayed.size() - 1)) >= 0); i++) {
        String from = replayed.isEmpty() ? last.id() : replayed.get(replayed.size() - 1).id();
        try (Stream stream = new Stream(request(endpoint, session, null)
            .header("Last-Event-ID", from).build())) {
          replayed.addAll(stream.rest());
        }
        if (replayed.isEmpty() || progress(replayed.get(replayed.size() - 1)) >= 0) {
          Thread.sleep(500);
        }
      }
      return replayed;
    }
  }

  /**
   * The most {@code probe_work} calls inside their handlers at once across the instances, from the
   * {@code start}/{@code end} lines of every instance's {@code runs}: a call with no end ran until
   * its instance was killed ({@code killedAt}, for the killed instance's file), or to the end.
   */
  static int mostAtOnce(List<Path> runs, Path killed, long killedAt) throws IOException {
    TreeMap<Long, Integer> changes = new TreeMap<>();
    for (Path file : runs) {
      Map<String, Long> open = new HashMap<>();
      for (String line : Files.readAllLines(file)) {
        String[] parts = line.split(" ");
        if (parts[0].equals("start")) {
          open.put(parts[1], Long.parseLong(parts[2]));
        } else if (open.containsKey(parts[1])) {
          changes.merge(open.remove(parts[1]), 1, Integer::sum);
          // An end at the same instant as another's start counts first: a permit given back.
          changes.merge(Long.parseLong(parts[2]), -1, Integer::sum);
        }
      }
      for (long start : open.values()) {
        changes.merge(start, 1, Integer::sum);
        if (file.equals(killed)) {
          changes.merge(killedAt, -1, Integer::sum);
        }
      }
    }
    int running = 0;
    int most = 0;
    for (int change : changes.values()) {
      running += change;
      most = Math.max(most, running);
    }
    return most;
  }
}
