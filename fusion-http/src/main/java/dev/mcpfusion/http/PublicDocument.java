package dev.mcpfusion.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A static JSON document the HTTP server publishes beside the MCP endpoint, such as a server card
 * or an agent card ({@link HttpOptions#publish(PublicDocument...)}). It is public by nature: what a
 * client reads before it connects or holds a token.
 *
 * @param path where it is served, an absolute path such as {@code /.well-known/agent-card.json}
 * @param mediaType its own media type (e.g. {@code application/mcp-server-card+json}), answered
 *     when the request's {@code Accept} names it; any other request gets {@code application/json}
 * @param json the document, UTF-8 JSON text
 */
public record PublicDocument(String path, String mediaType, String json) {

  public PublicDocument {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(mediaType, "mediaType");
    Objects.requireNonNull(json, "json");
    if (!path.startsWith("/") || path.contains("*") || path.contains("?") || path.contains("#")
        || path.endsWith("/")) {
      throw new IllegalArgumentException("A published document's path must be an absolute path"
          + " without wildcard, query, fragment or trailing slash, such as"
          + " /.well-known/agent-card.json, but was '" + path + "'.");
    }
  }

  /** The document as bytes. */
  byte[] body() {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /** A strong entity tag of the body: the first 128 bits of its SHA-256, quoted. */
  String etag() {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(body());
      return "\"" + HexFormat.of().formatHex(hash, 0, 16) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
