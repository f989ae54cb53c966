package dev.mcpfusion.outbound;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One call {@link OutboundHttp#send} makes: a method, an absolute URL, headers and an optional
 * body. The {@code Host} header is always the URL's host; it and the framing headers cannot be set.
 *
 * <pre>{@code
 * OutboundRequest.post("https://api.example.com/invoices", json, "application/json")
 *     .header("Authorization", "Bearer " + token)
 * }</pre>
 *
 * @param method the HTTP method, upper case
 * @param url the absolute http or https URL
 * @param headers the request headers (names as given)
 * @param body the request body (empty for none)
 * @param contentType the body's media type, or {@code null} without a body
 */
public record OutboundRequest(String method, String url, Map<String, String> headers, byte[] body, String contentType) {
  private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
  private static final Set<String> RESERVED_HEADERS =
      Set.of("host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "proxy-authorization");

  /** Checks the method and the headers, and copies the body. */
  public OutboundRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(url, "url");
    method = method.toUpperCase(Locale.ROOT);
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException("The method must be one of " + METHODS + ", got \"" + method + "\".");
    }
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (RESERVED_HEADERS.contains(header.getKey().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("The header " + header.getKey() + " is set by the client from the URL"
            + " and the body; remove it from the request.");
      }
    }
    headers = Map.copyOf(headers);
    body = body == null ? new byte[0] : body.clone();
  }

  /** A GET of {@code url}. */
  public static OutboundRequest get(String url) {
    return new OutboundRequest("GET", url, Map.of(), null, null);
  }

  /** A DELETE of {@code url}. */
  public static OutboundRequest delete(String url) {
    return new OutboundRequest("DELETE", url, Map.of(), null, null);
  }

  /** A POST of {@code body} (UTF-8) as {@code contentType} to {@code url}. */
  public static OutboundRequest post(String url, String body, String contentType) {
    return new OutboundRequest("POST", url, Map.of(), body.getBytes(StandardCharsets.UTF_8), contentType);
  }

  /** A request of any method with a UTF-8 body ({@code null} for none). */
  public static OutboundRequest of(String method, String url, String body, String contentType) {
    return new OutboundRequest(method, url, Map.of(),
        body == null ? null : body.getBytes(StandardCharsets.UTF_8), body == null ? null : contentType);
  }

  /** A copy with one more header (replacing one of the same name). */
  public OutboundRequest header(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new OutboundRequest(method, url, more, body, contentType);
  }

  /** A copy of the body. */
  @Override
  public byte[] body() {
    return body.clone();
  }
}
