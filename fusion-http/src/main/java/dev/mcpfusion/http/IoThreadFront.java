package dev.mcpfusion.http;

import dev.mcpfusion.core.edge.Message;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * {@link HttpOptions#answerOnIoThread(boolean)}: Jetty runs a handler that reports itself
 * non-blocking on the thread that read the request, saving the hand-off to a pool thread. This one
 * never lets the servlet block that thread: a POST to the endpoint with a known body within the
 * cap is read as its bytes arrive (a body that arrives slowly holds no thread) and parsed once;
 * the endpoint says whether its message never waits ({@link PostRequests#neverWaits}); if so, the
 * servlet runs here with the body replayed to it and its writes copied, queued and written as the
 * connection takes them (a client that reads slowly holds no thread either); every other request
 * runs on a pool thread, as it would without this front.
 */
final class IoThreadFront extends Handler.Wrapper {
  private final long maxBody;
  private final Executor pool;
  private final McpHttpServlet servlet;

  IoThreadFront(Handler context, long maxBody, Executor pool, McpHttpServlet servlet) {
    super(context);
    this.maxBody = maxBody;
    this.pool = pool;
    this.servlet = servlet;
  }

  /**
   * Whether {@code options} ask for this front and nothing outside the edge can wait: no
   * authenticator (it may ask another server), and sessions and events kept in this process (a
   * remote store is a network round trip on every request).
   */
  static boolean applies(HttpOptions options) {
    return options.answerOnIoThread() && options.auth() == null
        && options.sessionStore() == SessionStore.none()
        && (options.eventStore() == null || options.eventStore() instanceof InMemoryEventStore);
  }

  @Override
  public InvocationType getInvocationType() {
    return InvocationType.NON_BLOCKING;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long length = request.getLength();
    if (!"POST".equals(request.getMethod()) || length < 0 || length > maxBody
        || !servlet.path().equals(Request.getPathInContext(request))) {
      pool.execute(() -> next(request, response, callback));
      return true;
    }
    new BodyReader(request, response, callback, (int) length).run();
    return true;
  }

  private void next(Request request, Response response, Callback callback) {
    try {
      if (!super.handle(request, response, callback)) {
        Response.writeError(request, response, callback, 404);
      }
    } catch (Throwable failure) {
      callback.failed(failure);
    }
  }

  /**
   * Reads the whole body without waiting (asking Jetty to call back when more has arrived), then
   * runs the servlet here or hands it to the pool.
   */
  private final class BodyReader implements Runnable, Invocable {
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final byte[] body;
    private int filled;

    BodyReader(Request request, Response response, Callback callback, int length) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.body = new byte[length];
    }

    @Override
    public InvocationType getInvocationType() {
      return InvocationType.NON_BLOCKING;
    }

    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          callback.failed(chunk.getFailure());
          return;
        }
        ByteBuffer bytes = chunk.getByteBuffer();
        int n = Math.min(bytes.remaining(), body.length - filled);
        bytes.get(body, filled, n);
        filled += n;
        boolean last = chunk.isLast();
        chunk.release();
        if (last) {
          Replay replay = new Replay(request, ByteBuffer.wrap(body, 0, filled));
          Message message = servlet.posts().read(body, filled);
          replay.setAttribute(PostRequests.PARSED, message);
          if (!servlet.posts().neverWaits(message,
              request.getHeaders().get("MCP-Protocol-Version"))) {
            pool.execute(() -> next(replay, response, callback));
            return;
          }
          QueuedWrites writes = new QueuedWrites(request, response);
          Callback done = Callback.from(() -> writes.finish(callback), callback::failed);
          next(replay, writes, done);
          return;
        }
      }
    }
  }

  /** The request with its body already read: one last chunk, then the end. */
  private static final class Replay extends Request.Wrapper {
    private Content.Chunk chunk;

    Replay(Request request, ByteBuffer body) {
      super(request);
      this.chunk = Content.Chunk.from(body, true);
    }

    @Override
    public synchronized Content.Chunk read() {
      Content.Chunk next = chunk;
      chunk = Content.Chunk.EOF;
      return next;
    }

    @Override
    public void demand(Runnable demandCallback) {
      demandCallback.run();
    }
  }

  /**
   * The servlet's writes, copied (the servlet reuses its buffer once told a write is done) and
   * written in order as the connection takes them; the request completes when the last has left.
   * A failed write fails the writes after it, and the request.
   */
  private static final class QueuedWrites extends Response.Wrapper {
    private final ArrayDeque<Object[]> queue = new ArrayDeque<>();
    private final Flusher flusher = new Flusher();
    private Callback finished;
    private Throwable failure;
    private boolean idle = true;

    QueuedWrites(Request request, Response response) {
      super(request, response);
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
      ByteBuffer copy;
      if (content == null || !content.hasRemaining()) {
        copy = null;
      } else {
        copy = ByteBuffer.allocate(content.remaining());
        copy.put(content).flip();
      }
      Throwable failed;
      synchronized (this) {
        failed = failure;
        if (failed == null) {
          queue.add(new Object[] {last, copy});
        }
      }
      if (failed != null) {
        callback.failed(failed);
        return;
      }
      callback.succeeded();
      flusher.iterate();
    }

    /** The servlet is done: complete {@code callback} once the queued writes have left. */
    void finish(Callback callback) {
      Throwable failed;
      synchronized (this) {
        failed = failure;
        if (failed == null && !(queue.isEmpty() && idle)) {
          finished = callback;
          return;
        }
      }
      if (failed != null) {
        callback.failed(failed);
      } else {
        callback.succeeded();
      }
    }

    private final class Flusher extends IteratingCallback {
      @Override
      protected Action process() {
        Object[] next;
        Callback done = null;
        synchronized (QueuedWrites.this) {
          next = queue.poll();
          idle = next == null;
          if (idle) {
            done = finished;
            finished = null;
          }
        }
        if (next == null) {
          if (done != null) {
            done.succeeded();
          }
          return Action.IDLE;
        }
        QueuedWrites.super.write((Boolean) next[0], (ByteBuffer) next[1], this);
        return Action.SCHEDULED;
      }

      @Override
      protected void onCompleteFailure(Throwable cause) {
        Callback done;
        synchronized (QueuedWrites.this) {
          failure = cause;
          queue.clear();
          done = finished;
          finished = null;
        }
        if (done != null) {
          done.failed(cause);
        }
      }
    }
  }
}
