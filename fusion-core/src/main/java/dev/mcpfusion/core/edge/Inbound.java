package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.Caller;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a transport knows about a message besides its bytes: which transport it is and, on HTTP,
 * the request headers. Headers are flattened here, once, for every transport: names lower-case,
 * repeated values joined with {@code ", "} (as HTTP itself folds them); and who sent it, as the
 * transport's authenticator found ({@link Caller#local()} where nothing authenticates).
 */
public final class Inbound {
  private static final Inbound STDIO = new Inbound("stdio", Map.of());
  private static final Inbound IN_PROCESS = new Inbound("in-process", Map.of());

  private final String transport;
  private final Map<String, String> headers;
  private final Caller caller;

  private Inbound(String transport, Map<String, String> headers) {
    this(transport, headers, Caller.local());
  }

  private Inbound(String transport, Map<String, String> headers, Caller caller) {
    this.transport = transport;
    this.headers = headers;
    this.caller = caller;
  }

  /** This message as sent by {@code caller} ({@code null}: the local caller). */
  public Inbound withCaller(Caller caller) {
    return new Inbound(transport, headers, caller == null ? Caller.local() : caller);
  }

  /** Who sent the message. */
  public Caller caller() {
    return caller;
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
      if (entry.getValue() instanceof Collection<?> values) {
        for (Object v : values) {
          if (v != null) {
            addHeader(flat, entry.getKey(), String.valueOf(v));
          }
        }
      } else {
        addHeader(flat, entry.getKey(), String.valueOf(entry.getValue()));
      }
    }
    return new Inbound(transport, Map.copyOf(flat));
  }

  /**
   * Adds one header value to {@code flat} by the one flattening rule: the name lower-cased, a
   * repeated header's values joined with {@code ", "}. For a transport that reads its headers one
   * value at a time ({@link #flat} then takes the map as it is).
   */
  public static void addHeader(Map<String, String> flat, String name, String value) {
    flat.merge(name.toLowerCase(Locale.ROOT), value, (a, b) -> a + ", " + b);
  }

  /**
   * A message from {@code transport} with headers already flattened by {@link #addHeader}; the map
   * is used as it is (no copy) and must not change afterwards.
   */
  public static Inbound flat(String transport, Map<String, String> lowerCaseHeaders) {
    return new Inbound(transport, java.util.Collections.unmodifiableMap(lowerCaseHeaders));
  }

  /** The transport's name ({@code stdio}, {@code http}, {@code in-process}), for logs. */
  public String transport() {
    return transport;
  }

  /**
   * The transport as OpenTelemetry's {@code network.transport} names it: {@code pipe} for stdio,
   * {@code tcp} for HTTP, {@code null} for a message handed over in memory.
   */
  public String networkTransport() {
    return switch (transport) {
      case "stdio" -> "pipe";
      case "http" -> "tcp";
      default -> null;
    };
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
