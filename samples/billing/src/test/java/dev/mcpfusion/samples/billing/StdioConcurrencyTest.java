package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.samples.billing.fixtures.BarrierTools;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * One stdio session, many calls in flight: they run at the same time, and no answer is lost or
 * given to the wrong call. No clock is involved in any assertion.
 */
class StdioConcurrencyTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private OutputStream toServer;
  private BufferedReader fromServer;
  private Thread serving;
  private StdioTransport transport;

  private void start(BarrierTools tools) throws IOException {
    start(tools, 0);
  }

  /**
   * With {@code pauseAfterReplyMillis}, a thread that wrote a reply pauses that long after the
   * client has it: work after the reply, which a fast client overtakes with its next call.
   */
  private void start(BarrierTools tools, long pauseAfterReplyMillis) throws IOException {
    FusionServer server = FusionServer.builder("conc", "1").register(tools).build();
    // NIO pipes, not java.io's Piped streams: those fail once the thread that last read (or wrote)
    // has ended, and the transport's serving threads come and go.
    java.nio.channels.Pipe input = java.nio.channels.Pipe.open();
    java.nio.channels.Pipe output = java.nio.channels.Pipe.open();
    java.io.InputStream serverIn = java.nio.channels.Channels.newInputStream(input.source());
    toServer = java.nio.channels.Channels.newOutputStream(input.sink());
    java.io.InputStream clientIn = java.nio.channels.Channels.newInputStream(output.source());
    OutputStream piped = java.nio.channels.Channels.newOutputStream(output.sink());
    OutputStream serverOut = pauseAfterReplyMillis == 0 ? piped : new java.io.FilterOutputStream(piped) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        piped.write(b, off, len);
      }

      @Override
      public void flush() throws IOException {
        piped.flush();
        try {
          Thread.sleep(pauseAfterReplyMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    fromServer = new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8));
    transport = new StdioTransport(serverIn, serverOut, server.edge(), Duration.ofSeconds(30));
    serving = new Thread(() -> {
      try {
        transport.serve();
        serverOut.close();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    }, "stdio-under-test");
    serving.start();
    send("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    assertThat(fromServer.readLine()).contains("\"id\":\"init\"");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  @AfterEach
  void stop() throws Exception {
    if (toServer != null) {
      toServer.close();
      serving.join(30_000);
    }
  }

  private void send(String line) throws IOException {
    synchronized (this) {
      toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      toServer.flush();
    }
  }

  private static String call(Object id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + JSON.writeValueAsString(id)
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}";
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void sixteenCallsInFlightRunAtTheSameTime() throws Exception {
    start(new BarrierTools(16));
    for (int i = 0; i < 16; i++) {
      send(call(i, "conc_meet", "{}"));
    }
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      replies.add(fromServer.readLine());
    }
    // Only a barrier that all 16 handlers reached together releases them; a serial server would
    // time out inside the first handler and answer INTERNAL_ERROR.
    assertThat(replies).hasSize(16).allSatisfy(r -> assertThat(r).contains("met").doesNotContain("isError\":true"));
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void callsSentOneAtATimeRunOnTheThreadThatReadThem() throws Exception {
    start(new BarrierTools(1));
    for (int i = 0; i < 1000; i++) {
      send(call(i, "conc_echo", "{\"n\":" + i + "}"));
      assertThat(fromServer.readLine()).contains("\"id\":" + i + ",").contains("\"text\":\"" + i + "\"");
    }
    // With no line waiting behind it, a call runs where it was read and that thread reads on:
    // no other thread is woken for it. Only a call the watchdog found slow (over a millisecond,
    // as the first calls are and as a loaded machine makes some) is passed on.
    assertThat(transport.callsAnsweredWhereRead()).isGreaterThan(500);
  }

  /**
   * A call whose reply is out is not in the way of the next one, even while its thread still
   * works: a client calling one at a time, faster than that thread finishes, has each call
   * answered where it was read, not passed on to a thread woken for it (and that one to the
   * next, for the rest of the session).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aCallWhoseReplyIsOutDoesNotStopTheNextBeingAnsweredWhereRead() throws Exception {
    start(new BarrierTools(1), 20);
    long before = transport.callsAnsweredWhereRead();
    for (int i = 0; i < 30; i++) {
      send(call(i, "conc_echo", "{\"n\":" + i + "}"));
      assertThat(fromServer.readLine()).contains("\"id\":" + i + ",");
    }
    assertThat(transport.callsAnsweredWhereRead() - before).isEqualTo(30);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aSlowCallAnsweredWhereItWasReadLetsTheNextLineIn() throws Exception {
    BarrierTools tools = new BarrierTools(2);
    start(tools);
    send(call(1, "conc_meet", "{}"));
    while (tools.inside() < 1) {
      Thread.onSpinWait(); // the first call now waits inside its handler, on the thread that read it
    }
    // Only the second call releases the first: it is read because the input is passed on while
    // the first one runs (a reader that kept the input would deadlock until the barrier's timeout).
    send(call(2, "conc_meet", "{}"));
    List<String> replies = List.of(fromServer.readLine(), fromServer.readLine());
    assertThat(replies).allSatisfy(r -> assertThat(r).contains("met").doesNotContain("isError\":true"));
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void anIdleTransportParksItsWatchdogUntilTheNextCall() throws Exception {
    start(new BarrierTools(1));
    for (int round = 0; round < 2; round++) {
      send(call(round, "conc_echo", "{\"n\":" + round + "}"));
      assertThat(fromServer.readLine()).contains("\"text\":\"" + round + "\"");
      // Idle: the thread that passes slow calls on stops polling and parks without a timeout, so
      // an idle connector costs no wake-ups; the next call wakes it again (second round).
      Thread watchdog = newestWatchdog();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (watchdog.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(watchdog.getState()).isEqualTo(Thread.State.WAITING);
    }
  }

  private static Thread newestWatchdog() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("fusion-stdio-") && t.getName().endsWith("-watchdog"))
        .filter(Thread::isAlive)
        .reduce((a, b) -> Long.parseLong(a.getName().split("-")[2]) > Long.parseLong(b.getName().split("-")[2]) ? a : b)
        .orElseThrow(() -> new AssertionError("no stdio watchdog thread is alive"));
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void soakOfOneHundredThousandCallsWithSixteenInFlightLosesNothing() throws Exception {
    start(new BarrierTools(1));
    int total = 100_000;
    Semaphore window = new Semaphore(16);
    Map<Long, Integer> answered = new ConcurrentHashMap<>();
    Map<Long, String> wrong = new ConcurrentHashMap<>();
    Thread reader = new Thread(() -> {
      try {
        for (int i = 0; i < total; i++) {
          String line = fromServer.readLine();
          @SuppressWarnings("unchecked")
          Map<String, Object> reply = JSON.readValue(line, Map.class);
          long id = ((Number) reply.get("id")).longValue();
          answered.merge(id, 1, Integer::sum);
          if (!line.contains("\"text\":\"" + id + "\"")) {
            wrong.put(id, line);
          }
          window.release();
        }
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    }, "soak-reader");
    reader.start();
    for (long id = 0; id < total; id++) {
      window.acquire();
      send(call(id, "conc_echo", "{\"n\":" + id + "}"));
    }
    reader.join(240_000);
    assertThat(answered).hasSize(total);
    assertThat(answered.values()).allMatch(count -> count == 1);
    assertThat(wrong).isEmpty();
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void malformedLinesGetTheSpecErrorAndTheSessionGoesOn() throws Exception {
    start(new BarrierTools(1));
    Map<String, String> expected = new HashMap<>();
    send("   ");
    expected.put("whitespace", fromServer.readLine());
    send("{not json");
    expected.put("garbage", fromServer.readLine());
    send("[]");
    expected.put("array", fromServer.readLine());
    send("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}");
    expected.put("objectId", fromServer.readLine());
    send("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"tools/list\"}");
    expected.put("version", fromServer.readLine());
    send("[".repeat(5000) + "]".repeat(5000));
    expected.put("deep", fromServer.readLine());
    send("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\",\"params\":{\"pad\":\""
        + "x".repeat(StdioTransport.MAX_LINE_BYTES) + "\"}}");
    expected.put("oversized", fromServer.readLine());
    send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}");
    expected.put("ping", fromServer.readLine());

    assertThat(expected.get("whitespace")).isEqualTo(
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: the message is not valid JSON.\"}}");
    assertThat(expected.get("garbage")).contains("\"id\":null").contains("-32700");
    assertThat(expected.get("array")).contains("\"id\":null").contains("-32600");
    assertThat(expected.get("objectId")).contains("\"id\":null").contains("-32600");
    assertThat(expected.get("version")).contains("\"id\":5").contains("-32600");
    assertThat(expected.get("deep")).contains("\"id\":null").containsAnyOf("-32700", "-32600");
    // Its id comes before the oversized part, so the answer names it.
    assertThat(expected.get("oversized")).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":99,\"error\":{\"code\":-32600,"
        + "\"message\":\"Invalid Request: the message is larger than 4194304 bytes; send a smaller one.\"}}");
    assertThat(expected.get("ping")).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}");
    for (String reply : expected.values()) {
      assertThat(reply).doesNotContain("Exception").doesNotContain("at java.").doesNotContain("at dev.")
          .doesNotContainPattern("[a-z]+(\\.[a-z0-9_]+)+\\.[A-Z]\\w*");
    }

    send(call(7, "conc_echo", "{\"n\":7}"));
    assertThat(fromServer.readLine()).contains("\"id\":7").contains("\"text\":\"7\"");
  }
}
