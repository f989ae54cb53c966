package dev.mcpfusion.http;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Answers every path other than the MCP endpoint with a plain JSON 404 (no container error page). */
final class NotFoundServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    byte[] body = CleanErrors.body(404);
    resp.setStatus(404);
    resp.setContentType("application/json");
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }
}
