package dev.mcpfusion.http;

import dev.mcpfusion.core.edge.Bodies;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.JsonRpc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event streams of one Streamable HTTP session, each resumable: the session's GET stream
 * (server-initiated messages) and every POST response that turned into a stream (a call's
 * progress, log messages and requests to the client, then its reply).
 *
 * <p>Every event gets an id ({@link StoredEvent#eventId()}) and goes to the {@link EventStore}
 * before it is written to the stream's connection, if the stream has one. A connection that fails
 * a write is let go, and the stream goes on storing: a call whose client lost its connection
 * still runs (a disconnection is not a cancellation), and its progress and reply wait in the
 * store. A GET with {@code Last-Event-ID} replays the events after that id on that stream, and
 * only that stream, then carries the stream on — or ends at once when the stream has ended (a
 * call's reply was its last event). An id another instance sent (the session is shared) replays
 * what the store keeps of that stream after it, and ends a POST stream whose call's instance has
 * stopped with the request's retryable error ({@link #INSTANCE_GONE}). An id that is malformed,
 * of another session, never sent, or behind events the store has dropped is refused with a
 * message saying which.
 *
 * <p>Locks: a stream's lock is taken before this object's (which guards storing against the
 * session's end), never the other way round.
 */
final class SessionStreams {
  private static final Logger log = LoggerFactory.getLogger(SessionStreams.class);
  /** {@code <tag>.<stream>-<sequence>}; the numbers without leading zeros, so each id has one spelling. */
  private static final Pattern EVENT_ID =
      Pattern.compile("([0-9a-z]{8})\\.(0|[1-9][0-9]{0,17})-([1-9][0-9]{0,17})");
  private static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
  private static final String NEW_STREAM = "open a new stream with a GET without Last-Event-ID.";

  static final String MALFORMED = "Bad Request: Last-Event-ID is not an event id this server "
      + "sent; send the id of the last event received, or " + NEW_STREAM;
  static final String FOREIGN = "Bad Request: Last-Event-ID names an event of another session; "
      + "resume a stream with the Mcp-Session-Id of the session that received it, or " + NEW_STREAM;
  static final String UNKNOWN = "Bad Request: Last-Event-ID names no event this session sent; "
      + "send the id of the last event received, or " + NEW_STREAM;
  /**
   * The error that ends a POST stream whose call's instance stopped before it replied: the call may
   * or may not have taken effect, so a change is checked before it is repeated.
   */
  static final String INSTANCE_GONE = "Server busy: the server instance that ran this request "
      + "stopped before it replied, so whether the request took effect is unknown. A read can be "
      + "sent again; before repeating a change, read what it changes (for example the record it "
      + "creates, updates or deletes) and repeat it only if it did not happen. Retry after 1 second.";
  static final String DROPPED = "Bad Request: the events after Last-Event-ID are no longer kept "
      + "(the oldest events are dropped to keep the replay buffer within its limits), so the "
      + "stream cannot be resumed without a gap; " + NEW_STREAM;

  /** Opens the response of a GET as an event stream (status and headers sent), once it is accepted. */
  @FunctionalInterface
  interface Opener {
    SseConnection open() throws IOException;
  }

  private final String sessionId;
  /** Drawn for the session, in every stream id: tells an id of another session apart. */
  private final String tag;
  private final EventStore store;
  /** The session counts as used (a connection of it ended: its client gets the whole idle limit to come back). */
  private final Runnable used;
  /** A GET connection was attached (the heartbeat must run). */
  private final Runnable connected;
  private final Stream get;
  /** Whether a GET stream was ever opened: until then server-initiated messages have no stream to wait on. */
  private volatile boolean getOpened;
  private final AtomicLong posts = new AtomicLong();
  /** The POST streams whose reply has not been sent yet. */
  private final Map<String, Stream> live = new ConcurrentHashMap<>();
  /** Guarded by {@code this}: once set, nothing more is stored for the session. */
  private boolean closed;

  SessionStreams(String sessionId, EventStore store, Runnable used, Runnable connected) {
    this.sessionId = sessionId;
    this.store = store;
    this.used = used;
    this.connected = connected;
    StringBuilder drawn = new StringBuilder(8);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < 8; i++) {
      drawn.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    this.tag = drawn.toString();
    this.get = new Stream(tag + ".0");
  }

  /** A server-initiated message: an event of the GET stream, dropped when no GET stream was ever opened. */
  void push(byte[] json) {
    if (!getOpened) {
      log.debug("Session {}: no event stream open; dropping a server-initiated message", sessionId);
      return;
    }
    get.send(json);
  }

  /** A GET without {@code Last-Event-ID}: the GET stream goes on on this connection (ending the one before). */
  void openGet(Opener open) throws IOException {
    SseConnection connection = open.open();
    connection.onEnd(() -> get.release(connection));
    getOpened = true;
    get.attach(connection);
    connected.run();
  }

  /**
   * A POST response turned into an event stream: a new stream, carried by {@code connection}, of
   * the call of request {@code requestId}; the store records that this instance runs it.
   */
  Stream openPost(SseConnection connection, Object requestId) {
    Stream stream = new Stream(tag + "." + posts.incrementAndGet());
    stream.connection = connection;
    live.put(stream.id, stream);
    try {
      store.opened(sessionId, stream.id, Json.write(requestId));
    } catch (RuntimeException e) {
      log.warn("Session {}: the event store failed to record stream {}'s call; a client resuming"
          + " it elsewhere cannot learn if this instance stopped", sessionId, stream.id, e);
    }
    return stream;
  }

  /**
   * A GET with {@code Last-Event-ID}: replays what the client missed on the stream that id names
   * and carries the stream on; or, before anything is sent, the message refusing the id.
   *
   * @return {@code null} when the stream was resumed, else why not (answer 400 with it)
   */
  String resume(String lastEventId, Opener open) throws IOException {
    Matcher id = EVENT_ID.matcher(lastEventId.trim());
    if (!id.matches()) {
      return MALFORMED;
    }
    if (!id.group(1).equals(tag)) {
      return resumeElsewhere(id.group(1) + "." + id.group(2), Long.parseLong(id.group(3)),
          id.group(2).equals("0"), open);
    }
    String streamId = tag + "." + id.group(2);
    long cursor = Long.parseLong(id.group(3));
    Stream stream = id.group(2).equals("0") ? get : live.get(streamId);
    if (stream != null) {
      return stream.resume(cursor, open);
    }
    if (Long.parseLong(id.group(2)) > posts.get()) {
      return UNKNOWN;
    }
    return resumeEnded(streamId, cursor, open);
  }

  /**
   * A stream this copy of the session did not carry: another instance's (the session is shared
   * through a {@link SessionStore}) or an earlier copy's here. The store keyed by this session
   * knows it, or it is another session's. What the store keeps after {@code cursor} is replayed;
   * then a GET stream goes on as this copy's GET stream (its later events carry this copy's ids),
   * while a POST stream's connection ends: its call runs where it started, so a client that has
   * not received the reply yet resumes again with the newest id it received. When the instance
   * that runs the call has stopped (the store says so), the stream ends instead with the request's
   * own retryable error ({@link #INSTANCE_GONE}), stored as its last event, so every later resume
   * gets that same answer.
   */
  private String resumeElsewhere(String streamId, long cursor, boolean getStream, Opener open)
      throws IOException {
    Optional<List<StoredEvent>> kept = kept(streamId, cursor);
    if (kept.isEmpty()) {
      return FOREIGN;
    }
    List<StoredEvent> events = kept.get();
    if (events.isEmpty()) {
      return UNKNOWN;
    }
    long first = events.get(0).sequence();
    if (first > cursor + 1) {
      return DROPPED;
    }
    List<StoredEvent> missed = first == cursor ? events.subList(1, events.size()) : events;
    if (getStream) {
      return get.carryOn(missed, open);
    }
    StoredEvent newest = events.get(events.size() - 1);
    if (!isReply(newest)) {
      Optional<StoredEvent> ending = endOrphaned(streamId, newest.sequence());
      if (ending.isPresent()) {
        missed = new java.util.ArrayList<>(missed);
        missed.add(ending.get());
      }
    }
    SseConnection connection = open.open();
    if (replay(connection, missed)) {
      connection.close();
    }
    return null;
  }

  /**
   * What the store keeps of a stream from {@code sequence} on; read before a resume sends
   * anything, so a store that fails is answered as such ({@link EventStoreUnavailable}).
   */
  private Optional<List<StoredEvent>> kept(String streamId, long sequence) {
    try {
      return store.eventsFrom(sessionId, streamId, sequence);
    } catch (RuntimeException e) {
      throw new EventStoreUnavailable(e);
    }
  }

  /** Whether {@code event} is a call's reply (a JSON-RPC response: no method), its stream's last. */
  private static boolean isReply(StoredEvent event) {
    try {
      return Json.parse(event.data()) instanceof Map<?, ?> message && !message.containsKey("method");
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * The stream's ending when the instance that runs its call has stopped; empty while it lives,
   * or when the store cannot tell now (the client resumes again, as for a running call).
   */
  private Optional<StoredEvent> endOrphaned(String streamId, long newest) {
    Map<String, Object> data = new java.util.LinkedHashMap<>();
    data.put("code", Codes.SERVER_BUSY);
    data.put("outcome", "unknown");
    data.put("retryAfterSeconds", 1);
    try {
      return store.endOrphaned(sessionId, streamId, newest, requestId -> new String(
          Bodies.error(Json.parse(requestId), JsonRpc.SERVER_BUSY, INSTANCE_GONE, data),
          StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      log.warn("Session {}: the event store could not tell whether stream {}'s call still runs",
          sessionId, streamId, e);
      return Optional.empty();
    }
  }

  /** A POST stream whose reply was sent: what the store keeps of it is all there is. */
  private String resumeEnded(String streamId, long cursor, Opener open) throws IOException {
    Optional<List<StoredEvent>> kept = kept(streamId, cursor);
    if (kept.isEmpty()) {
      return DROPPED;
    }
    List<StoredEvent> events = kept.get();
    if (events.isEmpty()) {
      return UNKNOWN;
    }
    long first = events.get(0).sequence();
    if (first > cursor + 1) {
      return DROPPED;
    }
    SseConnection connection = open.open();
    replay(connection, first == cursor ? events.subList(1, events.size()) : events);
    connection.close();
    return null;
  }

  /** Writes {@code events} to {@code connection}; false (the connection closed) when a write failed. */
  private boolean replay(SseConnection connection, List<StoredEvent> events) {
    try {
      for (StoredEvent event : events) {
        connection.event(event.eventId(), event.data().getBytes(StandardCharsets.UTF_8));
      }
      return true;
    } catch (IOException e) {
      log.debug("Session {}: the client left while its stream was replayed", sessionId, e);
      connection.close();
      return false;
    }
  }

  /** Stores an event unless the session has ended; a store that fails costs the replay, not the stream. */
  private synchronized void keep(StoredEvent event) {
    if (closed) {
      return;
    }
    try {
      store.append(event);
    } catch (RuntimeException e) {
      log.warn("Session {}: the event store failed; event {} cannot be replayed", sessionId,
          event.eventId(), e);
    }
  }

  /** Writes a heartbeat to every GET connection, releasing those whose client is gone. */
  void heartbeat() {
    get.heartbeat();
    for (Stream stream : live.values()) {
      stream.heartbeat();
    }
  }

  /** GET connections open now (the session's stream, and streams resumed on a GET). */
  int connections() {
    int open = get.connected() ? 1 : 0;
    for (Stream stream : live.values()) {
      if (stream.connected()) {
        open++;
      }
    }
    return open;
  }

  /** POST streams whose reply has not been sent yet. */
  int liveStreams() {
    return live.size();
  }

  /** Ends every GET connection (shutdown: streams must not hold it up). */
  void closeConnections() {
    get.closeConnection();
    for (Stream stream : live.values()) {
      stream.closeConnection();
    }
  }

  /**
   * The session ended here: its GET connections end and, when {@code forget}, the store forgets
   * its events (not when another instance may still serve the session).
   */
  void close(boolean forget) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    if (forget) {
      try {
        store.forget(sessionId);
      } catch (RuntimeException e) {
        log.warn("Session {}: the event store failed to forget the session's events", sessionId, e);
      }
    }
    closeConnections();
  }

  /** One resumable stream: its events are numbered from 1 and each is stored before it is written. */
  final class Stream {
    final String id;
    private long next = 1;
    /** Where events go now; {@code null} while the client is away (they are stored only). */
    private SseConnection connection;
    private boolean ended;

    Stream(String id) {
      this.id = id;
    }

    /** Stores the event and writes it to the connection, letting the connection go if the write fails. */
    synchronized void send(byte[] json) {
      long sequence = next++;
      keep(new StoredEvent(sessionId, id, sequence, new String(json, StandardCharsets.UTF_8)));
      SseConnection current = connection;
      if (current == null) {
        return;
      }
      try {
        current.event(id + "-" + sequence, json);
      } catch (IOException e) {
        log.debug("Session {}: stream {} lost its client; its events wait for a resume", sessionId,
            id, e);
        release(current);
      }
    }

    /** Sends the stream's last event (a call's reply); a GET carrying the stream is then ended. */
    synchronized void end(byte[] reply) {
      send(reply);
      ended = true;
      live.remove(id);
      SseConnection current = connection;
      if (current != null && current.isAsync()) {
        connection = null;
        current.close();
      }
    }

    /** Carries the stream on {@code replacement}, ending the GET connection it replaces. */
    private synchronized void attach(SseConnection replacement) {
      SseConnection previous = connection;
      connection = replacement;
      if (previous != null && previous != replacement) {
        previous.close();
      }
    }

    /** {@code gone} lost its client or was ended: no longer the stream's connection. */
    synchronized void release(SseConnection gone) {
      if (connection == gone) {
        connection = null;
        used.run();
      }
      gone.close();
    }

    synchronized void heartbeat() {
      SseConnection current = connection;
      if (current == null || !current.isAsync()) {
        return;
      }
      try {
        current.heartbeat();
      } catch (IOException e) {
        log.debug("Session {}: the client of stream {} is gone; releasing its connection",
            sessionId, id, e);
        release(current);
      }
    }

    /**
     * Writes {@code missed} (another stream's events: a GET stream carried elsewhere) to a newly
     * opened connection, then carries this stream on there.
     */
    synchronized String carryOn(List<StoredEvent> missed, Opener open) throws IOException {
      SseConnection resumed = open.open();
      if (!replay(resumed, missed)) {
        return null;
      }
      resumed.onEnd(() -> release(resumed));
      attach(resumed);
      getOpened = true;
      connected.run();
      return null;
    }

    synchronized boolean connected() {
      return connection != null && connection.isAsync();
    }

    synchronized void closeConnection() {
      SseConnection current = connection;
      if (current != null && current.isAsync()) {
        connection = null;
        current.close();
      }
    }

    /**
     * Replays the events after {@code cursor} on a newly opened connection and carries the stream
     * on there (or ends the connection, if the stream has ended); refused before anything is sent
     * when {@code cursor} was never sent or the events after it are no longer all kept.
     */
    synchronized String resume(long cursor, Opener open) throws IOException {
      if (cursor >= next) {
        return UNKNOWN;
      }
      List<StoredEvent> missed = List.of();
      long wanted = next - 1 - cursor;
      if (wanted > 0) {
        missed = kept(id, cursor + 1).orElse(List.of());
        if (missed.size() != wanted || missed.get(0).sequence() != cursor + 1) {
          return DROPPED;
        }
      }
      SseConnection resumed = open.open();
      if (!replay(resumed, missed)) {
        return null;
      }
      if (ended) {
        resumed.close();
        return null;
      }
      resumed.onEnd(() -> release(resumed));
      attach(resumed);
      if (this == get) {
        getOpened = true;
      }
      connected.run();
      return null;
    }
  }
}
