package dev.mcpfusion.outbound;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An upstream's answer, read in full within the client's byte cap.
 *
 * @param status the HTTP status code
 * @param headers the response headers, names in lower case
 * @param body the response body (decompressed)
 */
public record OutboundResponse(int status, Map<String, List<String>> headers, byte[] body) {
  /** Copies the headers and the body. */
  public OutboundResponse {
    headers = Map.copyOf(headers);
    body = body.clone();
  }

  /** Whether the status is 2xx. */
  public boolean isSuccessful() {
    return status >= 200 && status < 300;
  }

  /** The first value of header {@code name} (any case), or {@code null}. */
  public String header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** The body as UTF-8 text. */
  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** A copy of the body. */
  @Override
  public byte[] body() {
    return body.clone();
  }
}
