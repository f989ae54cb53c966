package dev.mcpfusion.http;

import dev.mcpfusion.wire.JsonRpc;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's error pages replaced: every status Jetty answers itself (unmapped path, malformed HTTP,
 * oversized headers, a failure outside our servlet) gets a fixed JSON-RPC error body with the
 * status's reason phrase, never a stack trace, exception text or server banner.
 */
final class CleanErrors {
  private CleanErrors() {}

  static byte[] body(int status) {
    String reason = HttpStatus.getMessage(status);
    int code = status >= 500 ? JsonRpc.INTERNAL_ERROR : JsonRpc.INVALID_REQUEST;
    return ("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + code + ",\"message\":\""
        + reason.replace("\"", "'") + "\"}}").getBytes(StandardCharsets.UTF_8);
  }

  private static boolean writeJson(Response response, Callback callback, int code) {
    // Jetty answers a request line it cannot parse with 505 and some unusable framing with 501;
    // both are the client's mistake, and client mistakes get a 4xx.
    int status = code == 505 || code == 501 ? 400 : code;
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().remove(HttpHeader.SERVER);
    byte[] bytes = body(status);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
    response.write(true, ByteBuffer.wrap(bytes), callback);
    return true;
  }

  /** The server-wide error handler (errors outside any context and HTTP parse failures). */
  static final class ServerHandler extends org.eclipse.jetty.server.handler.ErrorHandler {
    ServerHandler() {
      quiet(this);
    }

    @Override
    protected boolean generateAcceptableResponse(Request request, Response response,
        Callback callback, String contentType, List<Charset> charsets, int code, String message,
        Throwable cause) throws IOException {
      return CleanErrors.writeJson(response, callback, code);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
      return badMessage(status, fields);
    }
  }

  /** The servlet context's error handler ({@code sendError} and uncaught failures). */
  static final class ContextHandler extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
    ContextHandler() {
      quiet(this);
    }

    @Override
    protected boolean generateAcceptableResponse(Request request, Response response,
        Callback callback, String contentType, List<Charset> charsets, int code, String message,
        Throwable cause) throws IOException {
      return CleanErrors.writeJson(response, callback, code);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
      return badMessage(status, fields);
    }
  }

  /** Nothing of the failure in a page: no stack, no cause, no message, no origin. */
  private static void quiet(org.eclipse.jetty.server.handler.ErrorHandler handler) {
    handler.setShowStacks(false);
    handler.setShowCauses(false);
    handler.setShowMessageInTitle(false);
    handler.setShowOrigin(false);
  }

  /** The JSON body of a request Jetty could not parse. */
  private static ByteBuffer badMessage(int status, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json");
    return ByteBuffer.wrap(body(status));
  }
}
