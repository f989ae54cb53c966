package dev.mcpfusion.http;

import dev.mcpfusion.core.Caller;
import java.util.List;

/**
 * The {@code WWW-Authenticate} challenges of the endpoint (RFC 6750 §3, RFC 9728 §5.1): a
 * {@code 401} names the protected resource metadata, and {@code error="invalid_token"} when a
 * credential was sent but refused; a {@code 403} for a call whose scopes the caller lacks names them
 * with {@code error="insufficient_scope"}, so that the client can ask for a token that has them.
 */
final class Challenges {
  /** The request attribute the servlet keeps the authenticated {@link Caller} under. */
  static final String CALLER_ATTRIBUTE = Caller.class.getName();

  private Challenges() {}

  /** The challenge of a {@code 401}. */
  static String unauthorized(HttpAuthenticator auth, boolean invalidToken) {
    StringBuilder out = new StringBuilder("Bearer");
    String sep = " ";
    ProtectedResource metadata = auth == null ? null : auth.protectedResource();
    if (metadata != null) {
      out.append(sep).append("resource_metadata=\"").append(metadata.metadataUrl()).append('"');
      sep = ", ";
    }
    if (invalidToken) {
      out.append(sep).append("error=\"invalid_token\"");
    }
    return out.toString();
  }

  /** The challenge of a {@code 403} for a call that needs {@code scopes}. */
  static String insufficientScope(HttpAuthenticator auth, List<String> scopes) {
    StringBuilder out = new StringBuilder("Bearer error=\"insufficient_scope\", scope=\"")
        .append(String.join(" ", scopes)).append('"');
    ProtectedResource metadata = auth == null ? null : auth.protectedResource();
    if (metadata != null) {
      out.append(", resource_metadata=\"").append(metadata.metadataUrl()).append('"');
    }
    return out.toString();
  }

  /** The caller the servlet authenticated for {@code req}; the local caller when none was kept. */
  static Caller caller(jakarta.servlet.http.HttpServletRequest req) {
    return req.getAttribute(CALLER_ATTRIBUTE) instanceof Caller c ? c : Caller.local();
  }
}
