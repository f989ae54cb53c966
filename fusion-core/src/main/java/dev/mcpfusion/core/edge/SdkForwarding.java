package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.wire.JsonRpc;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a classic-era message the edge does not answer itself to the connection's SDK session
 * (the handshake, {@code tools/list}, the SDK's own requests and their answers), and answers a
 * failure of the SDK with an internal error.
 */
final class SdkForwarding {
  private static final Logger LOG = LoggerFactory.getLogger(SdkForwarding.class);

  private SdkForwarding() {}

  /** Hands a classic message to the connection's SDK session. */
  static void forward(Message message, EdgeSession session) {
    if (session == null) {
      LOG.debug("Dropped {}: no session on this transport", message);
      return;
    }
    McpServerSession sdk = session.sdk();
    McpSchema.JSONRPCMessage sdkMessage = switch (message.kind()) {
      case REQUEST -> new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, message.method(),
          message.id(), message.rawParams());
      case NOTIFICATION -> new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
          message.method(), message.rawParams());
      default -> response(message);
    };
    boolean request = message.kind() == Message.Kind.REQUEST;
    if (request) {
      session.opened();
    }
    sdk.handle(sdkMessage)
        .contextWrite(c -> c.put(McpTransportContext.KEY, McpTransportContext.EMPTY))
        .doFinally(signal -> {
          if (request) {
            session.settled();
          }
        })
        .subscribe(null, e -> {
          String incident = ErrorReplies.newIncidentId();
          LOG.error("Session {} failed on {} (incident {})", session.id(), message, incident, e);
          if (request) {
            byte[] body = Bodies.error(message.id(), JsonRpc.INTERNAL_ERROR,
                "Internal error (incident " + incident + ").");
            session.replying(message.id(), JsonRpc.INTERNAL_ERROR, body);
            session.out().reply(message.id(), JsonRpc.INTERNAL_ERROR, body);
          }
        });
  }

  private static McpSchema.JSONRPCResponse response(Message message) {
    Map<String, Object> tree = message.tree();
    McpSchema.JSONRPCResponse.JSONRPCError error = null;
    if (tree.get("error") instanceof Map<?, ?> e) {
      error = new McpSchema.JSONRPCResponse.JSONRPCError(
          e.get("code") instanceof Number n ? n.intValue() : JsonRpc.INTERNAL_ERROR,
          e.get("message") instanceof String s ? s : "", e.get("data"));
    }
    return new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, message.id(), tree.get("result"), error);
  }
}
