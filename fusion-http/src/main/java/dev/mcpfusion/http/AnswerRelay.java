package dev.mcpfusion.http;

/**
 * Hands a client's response to the instance of the connector that waits for it. In the 2025 era a
 * handler on one instance may ask the client something (sampling, elicitation) on the session's
 * stream; the client POSTs its answer, and a load balancer without session affinity may send that
 * POST to another instance. With a relay, every request to the client carries this instance's
 * {@link #instance() name} in its id, and an instance that receives an answer it does not wait for
 * {@link #send sends} it to the instance named there, whose endpoint hands it to the waiting
 * handler.
 *
 * <p>A {@link SessionStore} that shares sessions provides one ({@link
 * SessionStore#answerRelay()}); without one, nothing is routed and an answer nobody here waits for
 * is dropped, as on a single instance. Called from any thread.
 */
public interface AnswerRelay {
  /** This instance's name in the ids of the requests it sends clients: 1 to 64 ASCII letters and digits. */
  String instance();

  /**
   * Starts handing the answers other instances {@link #send send} to this one to {@code receiver}
   * (an endpoint calls this once, when it starts); closing the handle stops it.
   */
  AutoCloseable listen(Receiver receiver);

  /**
   * Sends {@code response}, the JSON text of a client's response in session {@code sessionId}, to
   * {@code instance}.
   *
   * @return whether that instance took it (a request of the session waited there for it); {@code
   *     false} when it runs no more, or nothing there waits for it
   * @throws RuntimeException when the relay cannot send it now (its store does not answer), within
   *     the store's own timeout
   */
  boolean send(String instance, String sessionId, String response);

  /** What an instance does with an answer sent to it. */
  @FunctionalInterface
  interface Receiver {
    /** Hands {@code response} to the request of session {@code sessionId} it answers; whether one waited. */
    boolean receive(String sessionId, String response);
  }
}
