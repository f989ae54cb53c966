package dev.mcpfusion.core.edge;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a transport knows about a message besides its bytes: which transport it is and, on HTTP,
 * the request headers. Headers are flattened here, once, for every transport: names lower-case,
 * repeated values joined with {@code ", "} (as HTTP itself folds them).
 */
public final class Inbound {
  private static final Inbound STDIO = new Inbound("stdio", Map.of());
  private static final Inbound IN_PROCESS = new Inbound("in-process", Map.of());

  private final String transport;
  private final Map<String, String> headers;

  private Inbound(String transport, Map<String, String> headers) {
    this.transport = transport;
    this.headers = headers;
  }

  /** A message read from stdio (no headers). */
  public static Inbound stdio() {
    return STDIO;
  }

  /** A message handed over in the same process (the tester), with no headers. */
  public static Inbound inProcess() {
    return IN_PROCESS;
  }

  /**
   * A message from {@code transport} with these headers; a value may be a {@code String} or a
   * collection of values (joined with {@code ", "}); null names and values are skipped.
   */
  public static Inbound of(String transport, Map<String, ?> headers) {
    if (headers == null || headers.isEmpty()) {
      return new Inbound(transport, Map.of());
    }
    Map<String, String> flat = new LinkedHashMap<>(headers.size() * 2);
    for (Map.Entry<String, ?> entry : headers.entrySet()) {
      if (entry.getKey() == null || entry.getValue() == null) {
        continue;
      }
      Object value = entry.getValue();
      String text;
      if (value instanceof Collection<?> values) {
        StringBuilder joined = new StringBuilder();
        for (Object v : values) {
          if (v != null) {
            if (joined.length() > 0) {
              joined.append(", ");
            }
            joined.append(v);
          }
        }
        text = joined.toString();
      } else {
        text = String.valueOf(value);
      }
      flat.merge(entry.getKey().toLowerCase(Locale.ROOT), text, (a, b) -> a + ", " + b);
    }
    return new Inbound(transport, Map.copyOf(flat));
  }

  /**
   * A message from {@code transport} with headers already flattened as {@link #of} flattens them
   * (lower-case names, one value each); the map is used as it is and must not change afterwards.
   */
  public static Inbound flat(String transport, Map<String, String> lowerCaseHeaders) {
    return new Inbound(transport, java.util.Collections.unmodifiableMap(lowerCaseHeaders));
  }

  /** The transport's name ({@code stdio}, {@code http}, {@code in-process}), for logs. */
  public String transport() {
    return transport;
  }

  /** The headers: lower-case names, one value each. */
  public Map<String, String> headers() {
    return headers;
  }

  /** One header by its lower-case name, or {@code null}. */
  public String header(String lowerCaseName) {
    return headers.get(lowerCaseName);
  }
}
