package dev.mcpfusion.auth;

import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.http.ProtectedResource;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The configuration of an OAuth 2.1 resource server in front of an HTTP connector, as the MCP
 * authorization specification defines it; {@link #authenticator()} makes the
 * {@link HttpAuthenticator} that fusion-http runs on every request.
 *
 * <pre>{@code
 * HttpOptions options = HttpOptions.port(8080).auth(
 *     OAuth.issuer("https://idp.example.com/realms/acme")
 *         .resource("https://mcp.example.com/mcp")
 *         .scopes("invoices:read", "invoices:write")
 *         .authenticator());
 * }</pre>
 *
 * <ul>
 *   <li>JWT access tokens are checked locally: signature against the issuer's key set (found
 *       through its RFC 8414 / OpenID metadata, cached, refetched when a token names an unknown
 *       key, rate-limited), {@code iss}, {@code aud} = the resource URI, {@code exp}/{@code nbf}
 *       with {@link #clockSkew} (30 s), asymmetric algorithms only.
 *   <li>Opaque tokens are checked by introspection when {@link #introspection} is set.
 *   <li>API keys ({@link #apiKeys}) are accepted too, for clients without OAuth.
 *   <li>Tokens longer than {@link #maxTokenBytes} (16 kB) are refused unread.
 * </ul>
 *
 * <p>Every refused request gets {@code 401} with
 * {@code WWW-Authenticate: Bearer resource_metadata="…"} ({@code error="invalid_token"} when a token
 * was sent); the metadata (RFC 9728) is served at {@code /.well-known/oauth-protected-resource}.
 * Nothing about a refused token is logged above DEBUG, and the token never is. A token that cannot
 * be checked because the issuer does not answer gets {@code 503} with {@code Retry-After} instead.
 *
 * <p>Immutable: each method returns a changed copy.
 */
public final class OAuth {
  private final String issuer;
  private final String resource;
  private final List<String> scopes;
  private final String jwksUri;
  private final String introspectionEndpoint;
  private final String clientId;
  private final String clientSecret;
  private final ApiKeys apiKeys;
  private final Duration clockSkew;
  private final int maxTokenBytes;
  private final Duration jwksRateLimit;
  private final Duration introspectionCacheAge;
  private final int introspectionCacheSize;

  private OAuth(String issuer, String resource, List<String> scopes, String jwksUri,
      String introspectionEndpoint, String clientId, String clientSecret, ApiKeys apiKeys,
      Duration clockSkew, int maxTokenBytes, Duration jwksRateLimit, Duration introspectionCacheAge,
      int introspectionCacheSize) {
    this.issuer = issuer;
    this.resource = resource;
    this.scopes = scopes;
    this.jwksUri = jwksUri;
    this.introspectionEndpoint = introspectionEndpoint;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.apiKeys = apiKeys;
    this.clockSkew = clockSkew;
    this.maxTokenBytes = maxTokenBytes;
    this.jwksRateLimit = jwksRateLimit;
    this.introspectionCacheAge = introspectionCacheAge;
    this.introspectionCacheSize = introspectionCacheSize;
  }

  private static final OAuth NONE = new OAuth(null, null, List.of(), null, null, null, null, null,
      Duration.ofSeconds(30), 16 * 1024, Duration.ofSeconds(30), Duration.ofMinutes(5), 10_000);

  /** Tokens issued by {@code issuer} (their {@code iss}, exactly); set {@link #resource} too. */
  public static OAuth issuer(String issuer) {
    requireUri(issuer, "issuer");
    return new OAuth(issuer, null, List.of(), null, null, null, null, null, NONE.clockSkew,
        NONE.maxTokenBytes, NONE.jwksRateLimit, NONE.introspectionCacheAge,
        NONE.introspectionCacheSize);
  }

  /**
   * API keys alone, without an authorization server (no OAuth client can then get a token: the
   * {@code 401}s name no metadata); set {@link #resource} too.
   */
  public static OAuth apiKeysOnly(ApiKeys keys) {
    return NONE.apiKeys(keys);
  }

  /**
   * This server's canonical URI, {@code https://mcp.example.com/mcp}: tokens must name it in
   * {@code aud} (RFC 8707), and the metadata names it as the resource.
   */
  public OAuth resource(String resource) {
    requireUri(resource, "resource");
    if (URI.create(resource).getFragment() != null) {
      throw new IllegalArgumentException("The resource URI must have no fragment, but was '"
          + resource + "'.");
    }
    return new OAuth(issuer, resource, scopes, jwksUri, introspectionEndpoint, clientId,
        clientSecret, apiKeys, clockSkew, maxTokenBytes, jwksRateLimit, introspectionCacheAge,
        introspectionCacheSize);
  }

  /** The scopes the metadata lists as supported ({@code scopes_supported}). */
  public OAuth scopes(String... scopes) {
    return new OAuth(issuer, resource, List.of(scopes), jwksUri, introspectionEndpoint, clientId,
        clientSecret, apiKeys, clockSkew, maxTokenBytes, jwksRateLimit, introspectionCacheAge,
        introspectionCacheSize);
  }

  /** The issuer's key set at this URL, instead of the one its metadata names. */
  public OAuth jwksUri(String uri) {
    requireUri(uri, "jwksUri");
    return new OAuth(issuer, resource, scopes, uri, introspectionEndpoint, clientId, clientSecret,
        apiKeys, clockSkew, maxTokenBytes, jwksRateLimit, introspectionCacheAge,
        introspectionCacheSize);
  }

  /**
   * Checks tokens that are not JWTs by introspection (RFC 7662) at {@code endpoint} ({@code null}:
   * the one the issuer's metadata names), authenticating as this client.
   */
  public OAuth introspection(String endpoint, String clientId, String clientSecret) {
    if (endpoint != null) {
      requireUri(endpoint, "introspection endpoint");
    }
    return new OAuth(issuer, resource, scopes, jwksUri, endpoint == null ? "" : endpoint,
        Objects.requireNonNull(clientId, "clientId"),
        Objects.requireNonNull(clientSecret, "clientSecret"), apiKeys, clockSkew, maxTokenBytes,
        jwksRateLimit, introspectionCacheAge, introspectionCacheSize);
  }

  /** Accepts these API keys too. */
  public OAuth apiKeys(ApiKeys keys) {
    return new OAuth(issuer, resource, scopes, jwksUri, introspectionEndpoint, clientId,
        clientSecret, Objects.requireNonNull(keys, "keys"), clockSkew, maxTokenBytes, jwksRateLimit,
        introspectionCacheAge, introspectionCacheSize);
  }

  /** How far {@code exp} and {@code nbf} may be off (clocks drift); 0 to 5 minutes. */
  public OAuth clockSkew(Duration skew) {
    if (skew.isNegative() || skew.compareTo(Duration.ofMinutes(5)) > 0) {
      throw new IllegalArgumentException("The clock skew must be between 0 and 5 minutes, but was " + skew + ".");
    }
    return new OAuth(issuer, resource, scopes, jwksUri, introspectionEndpoint, clientId,
        clientSecret, apiKeys, skew, maxTokenBytes, jwksRateLimit, introspectionCacheAge,
        introspectionCacheSize);
  }

  /**
   * The longest token read; longer ones are refused without parsing (at least 1024). The server
   * caps all request headers first: fusion-http's embedded server at 80 KiB with an authenticator
   * ({@code HttpOptions.maxHeaderBytes}), so a token up to about 64 KiB gets this refusal's
   * {@code 401}; raise that cap with this one beyond it.
   */
  public OAuth maxTokenBytes(int bytes) {
    if (bytes < 1024) {
      throw new IllegalArgumentException("maxTokenBytes must be at least 1024, but was " + bytes + ".");
    }
    return new OAuth(issuer, resource, scopes, jwksUri, introspectionEndpoint, clientId,
        clientSecret, apiKeys, clockSkew, bytes, jwksRateLimit, introspectionCacheAge,
        introspectionCacheSize);
  }

  /**
   * The shortest time between two fetches of the key set (default 30 s): a token with an unknown
   * key id refetches it at most this often.
   */
  public OAuth jwksRateLimit(Duration interval) {
    if (interval.isNegative()) {
      throw new IllegalArgumentException("The rate limit must not be negative.");
    }
    return new OAuth(issuer, resource, scopes, jwksUri, introspectionEndpoint, clientId,
        clientSecret, apiKeys, clockSkew, maxTokenBytes, interval, introspectionCacheAge,
        introspectionCacheSize);
  }

  /** How long, at most, an introspection answer is kept (default 5 minutes), and for how many tokens. */
  public OAuth introspectionCache(Duration maxAge, int maxEntries) {
    if (maxAge.isNegative() || maxEntries < 0) {
      throw new IllegalArgumentException("The introspection cache's age and size must not be negative.");
    }
    return new OAuth(issuer, resource, scopes, jwksUri, introspectionEndpoint, clientId,
        clientSecret, apiKeys, clockSkew, maxTokenBytes, jwksRateLimit, maxAge, maxEntries);
  }

  /**
   * The authenticator of this configuration.
   *
   * @throws IllegalStateException when the resource is not set, or neither an issuer nor API keys
   */
  public HttpAuthenticator authenticator() {
    if (resource == null) {
      throw new IllegalStateException("Set the resource URI this server is known by:"
          + " OAuth.issuer(...).resource(\"https://mcp.example.com/mcp\").");
    }
    if (issuer == null && apiKeys == null) {
      throw new IllegalStateException("Name the token issuer (OAuth.issuer(...)) or give API keys"
          + " (OAuth.apiKeysOnly(...)).");
    }
    return new ResourceServer(this);
  }

  // ---- read by ResourceServer ------------------------------------------------------------------

  String issuer() {
    return issuer;
  }

  String resourceUri() {
    return resource;
  }

  List<String> supportedScopes() {
    return scopes;
  }

  String configuredJwksUri() {
    return jwksUri;
  }

  String introspectionEndpoint() {
    return introspectionEndpoint;
  }

  String clientId() {
    return clientId;
  }

  String clientSecret() {
    return clientSecret;
  }

  ApiKeys keys() {
    return apiKeys;
  }

  Duration skew() {
    return clockSkew;
  }

  int maxBytes() {
    return maxTokenBytes;
  }

  Duration rateLimit() {
    return jwksRateLimit;
  }

  Duration cacheAge() {
    return introspectionCacheAge;
  }

  int cacheSize() {
    return introspectionCacheSize;
  }

  private static void requireUri(String value, String what) {
    Objects.requireNonNull(value, what);
    URI uri;
    try {
      uri = URI.create(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("The " + what + " '" + value + "' is not a URI.");
    }
    if (!uri.isAbsolute() || uri.getHost() == null
        || !("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))) {
      throw new IllegalArgumentException("The " + what + " must be an absolute http(s) URL, but was '"
          + value + "'.");
    }
  }
}
