package dev.mcpfusion.http;

import java.util.Objects;

/**
 * One 2025-era session as a {@link SessionStore} keeps it: plain strings, so a store may write it
 * anywhere and read it back in another process.
 *
 * @param sessionId the {@code Mcp-Session-Id}
 * @param owner who opened the session (a request of anyone else that names it is told it does not
 *     exist); opaque
 * @param protocolVersion the protocol version {@code initialize} negotiated
 * @param clientCapabilities the client's capabilities from {@code initialize}, as JSON
 * @param clientInfo the client's {@code clientInfo} from {@code initialize}, as JSON, or {@code null}
 * @param logLevel the log level the client asked for, as on the wire ({@code info})
 */
public record StoredSession(String sessionId, String owner, String protocolVersion,
    String clientCapabilities, String clientInfo, String logLevel) {
  /** Checks that every component but {@code clientInfo} is present. */
  public StoredSession {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(clientCapabilities, "clientCapabilities");
    Objects.requireNonNull(logLevel, "logLevel");
  }
}
