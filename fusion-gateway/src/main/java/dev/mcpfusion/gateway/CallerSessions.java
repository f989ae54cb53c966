package dev.mcpfusion.gateway;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.wire.Codes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gateway's state per caller session (the MCP session id; over stateless HTTP, the caller's
 * subject): when it was last used, and the delegation it is in. A session idle longer than the
 * idle limit is closed, and its next call is refused once, saying its state is gone; a new session
 * beyond the cap is refused until one closes. Both refusals are envelopes the agent can act on.
 */
final class CallerSessions {
  /** How many closed session ids are remembered, to tell an expired session from a new one. */
  private static final int REMEMBERED_EXPIRED = 10_000;

  private final int max;
  private final Duration idle;
  private final Clock clock;
  /** Least recently used first. */
  private final LinkedHashMap<String, Session> live = new LinkedHashMap<>(16, 0.75f, true);
  private final LinkedHashMap<String, Boolean> expired = new LinkedHashMap<>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > REMEMBERED_EXPIRED;
    }
  };

  CallerSessions(int max, Duration idle, Clock clock) {
    this.max = max;
    this.idle = idle;
    this.clock = clock;
  }

  /** One caller session's state: when last used, and the handoff it is in with its carried state. */
  static final class Session {
    private Instant lastUsed;
    private String delegatedTo;
    private Map<String, String> state = Map.of();

    Session(Instant now) {
      this.lastUsed = now;
    }

    /** The upstream this session handed off to, or {@code null}. */
    synchronized String delegatedTo() {
      return delegatedTo;
    }

    /** The carried state (as of the last handoff or return). */
    synchronized Map<String, String> state() {
      return state;
    }

    synchronized void handOff(String target, Map<String, String> carried) {
      delegatedTo = target;
      state = Map.copyOf(carried);
    }

    synchronized void returned(Map<String, String> reconciled) {
      delegatedTo = null;
      state = Map.copyOf(reconciled);
    }
  }

  /**
   * The session of {@code request}'s caller, opened now if it has none, and marked used.
   *
   * @throws FusionError {@code SESSION_EXPIRED} once for a session closed as idle;
   *     {@code SERVER_BUSY} when the cap is reached
   */
  synchronized Session enter(RequestContext request) {
    Instant now = clock.instant();
    evictIdle(now);
    String key = key(request);
    Session session = live.get(key);
    if (session != null) {
      session.lastUsed = now;
      return session;
    }
    if (expired.remove(key) != null) {
      throw FusionError.of(Codes.SESSION_EXPIRED, "Your gateway session sat idle for more than "
              + Durations.words(idle) + " and was closed: what it held, such as a handoff under way"
              + " and the state it carried, is gone.")
          .recovery("Call the tool again: a new session starts with that call. If you were working"
              + " with a specialist through a handoff, hand off again.");
    }
    if (live.size() >= max) {
      Session oldest = live.values().iterator().next();
      Duration wait = Duration.between(now, oldest.lastUsed.plus(idle));
      throw FusionError.of(Codes.SERVER_BUSY, "The gateway already serves " + max
              + " sessions, its limit, so it cannot open one for you now.")
          .recovery("Retry after the time below, when an idle session will have closed. If this"
              + " keeps happening, tell the user the gateway is at capacity.")
          .detail("limit", String.valueOf(max))
          .retryAfter(wait.isNegative() || wait.isZero() ? Duration.ofSeconds(1) : wait);
    }
    session = new Session(now);
    live.put(key, session);
    return session;
  }

  /** How many sessions are open now. */
  synchronized int open() {
    evictIdle(clock.instant());
    return live.size();
  }

  private void evictIdle(Instant now) {
    Iterator<Map.Entry<String, Session>> oldestFirst = live.entrySet().iterator();
    while (oldestFirst.hasNext()) {
      Map.Entry<String, Session> entry = oldestFirst.next();
      if (entry.getValue().lastUsed.plus(idle).isAfter(now)) {
        return;
      }
      oldestFirst.remove();
      expired.put(entry.getKey(), Boolean.TRUE);
    }
  }

  private static String key(RequestContext request) {
    return request.sessionId().map(id -> "session:" + id)
        .orElseGet(() -> "caller:" + request.caller().subject().orElse(""));
  }
}
