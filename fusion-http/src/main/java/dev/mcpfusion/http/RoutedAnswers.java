package dev.mcpfusion.http;

import static dev.mcpfusion.http.HttpFraming.error;
import static dev.mcpfusion.http.HttpFraming.send;
import static dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR;
import static dev.mcpfusion.wire.JsonRpc.INVALID_REQUEST;

import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.json.Json;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients' responses (to sampling, elicitation) of the sessions of an endpoint whose session
 * store routes them ({@link AnswerRelay}): a response this instance waits for is handed over here;
 * one whose id names another instance is sent to it, and the POST is answered {@code 202} once
 * that instance took it. Any other is refused {@code 400} (the protocol's answer to a
 * response the server cannot accept), and one that cannot be sent now {@code 503} with {@code
 * Retry-After}, so the client sends it again rather than the handler waiting in vain.
 */
final class RoutedAnswers implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RoutedAnswers.class);

  private final AnswerRelay relay;
  private final Edge edge;
  private final AutoCloseable listening;

  RoutedAnswers(AnswerRelay relay, Edge edge, java.util.function.Function<String, EdgeSession> held) {
    this.relay = relay;
    this.edge = edge;
    this.listening = relay.listen((sessionId, response) -> {
      EdgeSession session = held.apply(sessionId);
      Message message = edge.read(response);
      if (session != null && session.answer(message)) {
        return true;
      }
      log.debug("Dropped an answer sent by another instance for session {}: no request of it waits"
          + " here for id {}", sessionId, message.id());
      return false;
    });
  }

  /** This instance's name in the ids of the requests its sessions send. */
  String instance() {
    return relay.instance();
  }

  /** Answers the POST of {@code response}, a client's response in {@code session}. */
  void post(HttpSessions.Session session, Message response, HttpServletResponse resp)
      throws IOException {
    if (session.edge.answer(response)) {
      accepted(resp);
      return;
    }
    String asker = EdgeSession.askedBy(response.id());
    if (asker == null || asker.equals(relay.instance())) {
      log.debug("Session {}: no request waits for the response with id {}", session.id(), response.id());
      send(resp, 400, error(null, INVALID_REQUEST, "Bad Request: no request of this server waits"
          + " for a response with id " + Json.write(response.id()) + " (it was answered already,"
          + " it timed out, or the server never sent it); send a response only to a request the"
          + " server sent, once."));
      return;
    }
    boolean handed;
    try {
      handed = relay.send(asker, session.id(), Json.write(response.tree()));
    } catch (RuntimeException e) {
      log.warn("Session {}: could not send the response with id {} to the instance that asked",
          session.id(), response.id(), e);
      resp.setHeader("Retry-After", "1");
      send(resp, 503, error(null, INTERNAL_ERROR, "Service Unavailable: this response could not be"
          + " handed to the instance of the server that waits for it now; send it again."));
      return;
    }
    if (!handed) {
      send(resp, 400, error(null, INVALID_REQUEST, "Bad Request: nothing waits for the response"
          + " with id " + Json.write(response.id()) + " any more (it was answered already, it timed"
          + " out, or the instance of the server that sent it stopped); the call that asked has"
          + " ended."));
      return;
    }
    accepted(resp);
  }

  private static void accepted(HttpServletResponse resp) {
    resp.setStatus(202);
    resp.setContentLength(0);
  }

  @Override
  public void close() {
    try {
      listening.close();
    } catch (Exception e) {
      log.debug("Could not stop hearing the answers of other instances", e);
    }
  }
}
