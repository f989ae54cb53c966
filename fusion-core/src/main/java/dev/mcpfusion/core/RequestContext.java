package dev.mcpfusion.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the framework knows about the request being served: transport headers, the call's
 * {@code params._meta}, the session and the protocol version. Always injectable into a handler
 * parameter and handed to every context provider.
 */
public final class RequestContext {
  private final Map<String, String> headers;
  private final Map<String, Object> meta;
  private final String sessionId;
  private final String protocolVersion;

  private RequestContext(Map<String, String> headers, Map<String, Object> meta, String sessionId,
      String protocolVersion) {
    TreeMap<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (headers != null) {
      h.putAll(headers);
    }
    this.headers = Collections.unmodifiableMap(h);
    this.meta = meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta));
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
  }

  /** A context with the given parts; any may be {@code null}. */
  public static RequestContext of(Map<String, String> headers, Map<String, Object> meta,
      String sessionId, String protocolVersion) {
    return new RequestContext(headers, meta, sessionId, protocolVersion);
  }

  /** An empty context (no transport headers, no {@code _meta}). */
  public static RequestContext empty() {
    return new RequestContext(null, null, null, null);
  }

  /** The transport headers (HTTP), case-insensitive; empty on stdio and in memory. */
  public Map<String, String> headers() {
    return headers;
  }

  /** One header, case-insensitive. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  /** The request's {@code params._meta}. */
  public Map<String, Object> meta() {
    return meta;
  }

  /** The MCP session id, if the transport has sessions. */
  public Optional<String> sessionId() {
    return Optional.ofNullable(sessionId);
  }

  /** The negotiated protocol version, if known. */
  public Optional<String> protocolVersion() {
    return Optional.ofNullable(protocolVersion);
  }
}
