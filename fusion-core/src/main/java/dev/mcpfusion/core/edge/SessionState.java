package dev.mcpfusion.core.edge;

import java.util.Objects;

/**
 * What another process needs to serve a 2025-era session this one initialised: plain strings, so
 * a transport can keep it in a shared store. {@link Edge#sessionState} takes it from an
 * initialised session; {@link Edge#resumeSession} opens the session again from it.
 *
 * @param id the session id ({@code Mcp-Session-Id})
 * @param protocolVersion the version {@code initialize} negotiated
 * @param clientCapabilities the client's {@code capabilities} from {@code initialize}, as JSON
 * @param clientInfo the client's {@code clientInfo} from {@code initialize}, as JSON, or
 *     {@code null} when it sent none
 * @param logLevel the level {@code logging/setLevel} asked for, as on the wire ({@code info})
 */
public record SessionState(String id, String protocolVersion, String clientCapabilities,
    String clientInfo, String logLevel) {
  /** Checks that the id, version, capabilities and level are present. */
  public SessionState {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(clientCapabilities, "clientCapabilities");
    Objects.requireNonNull(logLevel, "logLevel");
  }
}
