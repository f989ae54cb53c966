package dev.mcpfusion.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP response carrying events ({@code text/event-stream}): a GET stream, a GET that resumed
 * a stream, or a POST response that turned into a stream. Writes flush at once, so a write to a
 * client that is gone fails (soon) and the connection can be released.
 */
final class SseConnection {
  private static final Logger log = LoggerFactory.getLogger(SseConnection.class);
  private static final byte[] EVENT = "event: message\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DATA = "\ndata: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DATA_ONLY = "data: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
  /** An SSE comment line: every client skips it. */
  private static final byte[] HEARTBEAT = ": ping\n\n".getBytes(StandardCharsets.US_ASCII);

  private final OutputStream out;
  /** The asynchronous cycle of a GET; {@code null} for a POST response (its request thread ends it). */
  private final AsyncContext async;
  private final AtomicBoolean closed = new AtomicBoolean();

  SseConnection(OutputStream out, AsyncContext async) {
    this.out = out;
    this.async = async;
  }

  /** Whether this is a GET's asynchronous response (heartbeats go to these). */
  boolean isAsync() {
    return async != null;
  }

  /** Writes one message as an event with this {@code id} ({@code null}: none) and flushes it. */
  synchronized void event(String id, byte[] json) throws IOException {
    if (closed.get()) {
      throw new IOException("closed");
    }
    write(out, id, json);
  }

  /** Writes the heartbeat comment and flushes it: fails once the client is gone. */
  synchronized void heartbeat() throws IOException {
    if (closed.get()) {
      throw new IOException("closed");
    }
    out.write(HEARTBEAT);
    out.flush();
  }

  /** Writes the heartbeat comment on {@code out} and flushes it: fails once the client is gone. */
  static void comment(OutputStream out) throws IOException {
    out.write(HEARTBEAT);
    out.flush();
  }

  /** Writes one message as an SSE event with this {@code id} ({@code null}: none) and flushes it. */
  static void write(OutputStream out, String id, byte[] json) throws IOException {
    out.write(EVENT);
    if (id != null) {
      out.write(ID);
      out.write(id.getBytes(StandardCharsets.US_ASCII));
      out.write(DATA);
    } else {
      out.write(DATA_ONLY);
    }
    out.write(json);
    out.write(END);
    out.flush();
  }

  /**
   * Runs {@code released} when the container ends this GET's asynchronous cycle, whatever ends it
   * (the client's connection failing, a timeout, the cycle completed).
   */
  void onEnd(Runnable released) {
    async.addListener(new AsyncListener() {
      @Override
      public void onComplete(AsyncEvent event) {
        ended();
        released.run();
      }

      @Override
      public void onTimeout(AsyncEvent event) {
        released.run();
        close();
      }

      @Override
      public void onError(AsyncEvent event) {
        log.debug("An event stream failed", event.getThrowable());
        released.run();
        close();
      }

      @Override
      public void onStartAsync(AsyncEvent event) {
        // Not restarted: nothing to do.
      }
    });
  }

  /** Marks the connection ended by the container (its async cycle completed): nothing to complete. */
  void ended() {
    closed.set(true);
  }

  /** Ends the connection: a GET's asynchronous cycle is completed; a POST's ends with its thread. */
  void close() {
    if (closed.compareAndSet(false, true) && async != null) {
      try {
        async.complete();
      } catch (RuntimeException e) {
        // Already completed by the container (the client went away): nothing left to release.
        log.trace("Event stream already completed", e);
      }
    }
  }
}
