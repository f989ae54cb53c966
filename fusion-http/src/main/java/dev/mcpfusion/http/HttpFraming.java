package dev.mcpfusion.http;

import dev.mcpfusion.core.edge.Bodies;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;

/**
 * The HTTP framing every request of the endpoint shares: the MCP header names, how a status and a
 * JSON body are written, and how media types are read. Bodies are the edge's ({@link Bodies}).
 */
final class HttpFraming {
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String VERSION_HEADER = "MCP-Protocol-Version";
  static final String EVENT_STREAM = "text/event-stream";

  private HttpFraming() {}

  static byte[] error(Object id, int code, String message) {
    return Bodies.error(id, code, message);
  }

  static void send(HttpServletResponse resp, int status, byte[] body) throws IOException {
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }

  /** Starts an event-stream response (the status and headers, not yet sent). */
  static void startEventStream(HttpServletResponse resp) {
    resp.setStatus(200);
    resp.setContentType(EVENT_STREAM);
    resp.setCharacterEncoding("UTF-8");
    resp.setHeader("Cache-Control", "no-cache");
  }

  /** The media type of a {@code Content-Type} (or an {@code Accept} part), lower case, without parameters. */
  static String mediaType(String contentType) {
    if (contentType == null) {
      return null;
    }
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether the {@code Accept} header {@code accept} (may be {@code null}: no) allows {@code type}
   * (lower case): the type itself, its family ({@code application/*}) or {@code *}{@code /*}, in any
   * case, parameters ignored.
   */
  static boolean accepts(String accept, String type) {
    if (accept == null) {
      return false;
    }
    String family = type.substring(0, type.indexOf('/')) + "/*";
    for (String part : accept.split(",")) {
      String media = mediaType(part);
      if (media.equals(type) || media.equals(family) || media.equals("*/*")) {
        return true;
      }
    }
    return false;
  }
}
