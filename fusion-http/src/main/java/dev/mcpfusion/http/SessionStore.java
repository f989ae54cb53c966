package dev.mcpfusion.http;

import java.util.Optional;

/**
 * Where the Streamable HTTP endpoint keeps its 2025-era sessions so that every instance of a
 * connector can serve them: a session initialised on one instance is saved here, and an instance
 * that receives a request naming a session it does not hold loads it from here and serves it.
 *
 * <p>{@link #none()} is the default: sessions live in this process only (set another with
 * {@link HttpOptions#sessionStore}). A store keeps a session until it is {@link #remove removed}
 * (the client ended it with {@code DELETE}) or unused for as long as the store's own time-to-live;
 * an instance that closes an idle session locally leaves it in the store, where another instance
 * may still be serving it. When the store cannot answer, the endpoint answers {@code 503} with a
 * {@code Retry-After}: the client may retry, and nothing waits longer than the store's own timeout.
 * Called from any thread.
 */
public interface SessionStore {
  /** Saves {@code session} (after {@code initialize}, and again when its log level changes). */
  void save(StoredSession session);

  /** The saved session with {@code sessionId}, or empty when the store has none. */
  Optional<StoredSession> load(String sessionId);

  /** Marks the session used now, so the store keeps it for another time-to-live. */
  void touch(String sessionId);

  /** Forgets the session (its client ended it). */
  void remove(String sessionId);

  /**
   * What hands a client's answer that reached another instance to the instance that asked
   * ({@link AnswerRelay}); empty (the default) when answers are not routed.
   */
  default Optional<AnswerRelay> answerRelay() {
    return Optional.empty();
  }

  /** Sessions in this process only: nothing is saved, and a session id nobody here holds is 404. */
  static SessionStore none() {
    return NoSessionStore.INSTANCE;
  }
}
