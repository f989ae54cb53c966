package dev.mcpfusion.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** DELETE: the client ends its session (its event stream closes, its id stops working). */
final class DeleteSession {
  private final RequestChecks checks;
  private final HttpSessions sessions;

  DeleteSession(RequestChecks checks, HttpSessions sessions) {
    this.checks = checks;
    this.sessions = sessions;
  }

  void delete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    HttpSessions.Session session = checks.session(req, resp, null,
        "Bad Request: missing Mcp-Session-Id header.");
    if (session == null) {
      return;
    }
    sessions.end(session);
    resp.setStatus(204);
  }
}
