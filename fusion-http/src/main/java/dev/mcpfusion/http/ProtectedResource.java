package dev.mcpfusion.http;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) of an MCP endpoint: its canonical resource URI,
 * the authorization servers that issue tokens for it and the scopes it knows. Served as JSON at
 * {@code /.well-known/oauth-protected-resource} and at the path-suffixed form
 * ({@code /.well-known/oauth-protected-resource/mcp} for {@code https://host/mcp}); every
 * {@code 401} names it in {@code WWW-Authenticate: Bearer resource_metadata="…"}, as the MCP
 * authorization specification requires.
 *
 * @param resource the endpoint's canonical URI ({@code https://mcp.example.com/mcp}): tokens must
 *     name it as their audience (RFC 8707)
 * @param authorizationServers the issuers clients get tokens from (at least one)
 * @param scopesSupported the scopes the endpoint's actions require (may be empty)
 */
public record ProtectedResource(URI resource, List<URI> authorizationServers,
    List<String> scopesSupported) {
  /** The well-known path the metadata is served under. */
  public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

  public ProtectedResource {
    Objects.requireNonNull(resource, "resource");
    if (!resource.isAbsolute() || resource.getHost() == null || resource.getFragment() != null) {
      throw new IllegalArgumentException("The resource must be an absolute URI with a host and no"
          + " fragment, such as https://mcp.example.com/mcp, but was '" + resource + "'.");
    }
    authorizationServers = List.copyOf(authorizationServers);
    if (authorizationServers.isEmpty()) {
      throw new IllegalArgumentException("Name at least one authorization server (the token issuer).");
    }
    scopesSupported = List.copyOf(scopesSupported);
  }

  /** The metadata of {@code resource} whose tokens {@code issuer} issues, with these scopes. */
  public static ProtectedResource of(String resource, String issuer, String... scopes) {
    return new ProtectedResource(URI.create(resource), List.of(URI.create(issuer)), List.of(scopes));
  }

  /**
   * The absolute URL of the path-suffixed metadata document, as {@code resource_metadata} names it:
   * the well-known path inserted between the host and the resource's path.
   */
  public String metadataUrl() {
    String path = resource.getRawPath() == null || resource.getRawPath().equals("/") ? ""
        : resource.getRawPath();
    String port = resource.getPort() < 0 ? "" : ":" + resource.getPort();
    return resource.getScheme() + "://" + resource.getHost() + port + WELL_KNOWN + path;
  }

  /** The metadata document as a JSON tree (names of RFC 9728 §2). */
  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("resource", resource.toString());
    json.put("authorization_servers", authorizationServers.stream().map(URI::toString).toList());
    if (!scopesSupported.isEmpty()) {
      json.put("scopes_supported", scopesSupported);
    }
    json.put("bearer_methods_supported", List.of("header"));
    return json;
  }
}
