package dev.mcpfusion.auth;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.http.Authentication;
import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.http.ProtectedResource;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authenticator {@link OAuth#authenticator()} makes: reads the credential of a request (a
 * bearer token, or {@code X-API-Key}) and answers with its caller, or refuses it. In order: a token
 * too long is refused unread; an API key is looked up; a JWT is checked locally; any other token
 * goes to introspection when it is configured. Each refusal is logged at DEBUG with its reason,
 * never with the token. When the issuer does not answer (its metadata, key set or introspection
 * endpoint), the request is {@link Authentication#unavailable unavailable} ({@code 503}), logged at
 * WARN, not refused: the token may well be good.
 */
final class ResourceServer implements HttpAuthenticator {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceServer.class);

  private final int maxTokenBytes;
  private final ApiKeys keys;
  private final JwtAccessTokens jwt;
  private final Introspection introspection;
  private final ProtectedResource metadata;

  ResourceServer(OAuth config) {
    this.maxTokenBytes = config.maxBytes();
    this.keys = config.keys();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NEVER).build();
    String issuer = config.issuer();
    IssuerMetadata discovered = issuer == null ? null : new IssuerMetadata(issuer, http);
    if (issuer == null) {
      this.jwt = null;
      this.metadata = null;
    } else {
      String configured = config.configuredJwksUri();
      this.jwt = new JwtAccessTokens(issuer, config.resourceUri(), config.skew(), config.rateLimit(),
          configured != null ? () -> URI.create(configured) : () -> endpoint(discovered, true));
      this.metadata = new ProtectedResource(URI.create(config.resourceUri()),
          List.of(URI.create(issuer)), config.supportedScopes());
    }
    String endpoint = config.introspectionEndpoint();
    if (endpoint == null) {
      this.introspection = null;
    } else {
      this.introspection = new Introspection(
          !endpoint.isEmpty() || discovered == null ? () -> URI.create(endpoint)
              : () -> endpoint(discovered, false),
          config.clientId(), config.clientSecret(), config.resourceUri(), issuer, http,
          config.cacheAge(), config.cacheSize());
    }
  }

  private static URI endpoint(IssuerMetadata metadata, boolean keys) throws Unavailable {
    try {
      IssuerMetadata.Endpoints endpoints = metadata.endpoints();
      return keys ? endpoints.jwksUri() : endpoints.introspectionEndpoint();
    } catch (Rejected e) {
      return null;
    }
  }

  @Override
  public boolean authenticate(Map<String, String> headers) {
    return verify(headers).isAccepted();
  }

  @Override
  public Authentication verify(Map<String, String> headers) {
    String apiKey = headers.get("x-api-key");
    String token = apiKey != null ? apiKey.trim() : Tokens.bearer(headers);
    if (token == null || token.isEmpty()) {
      return Authentication.missing();
    }
    String kind = apiKey != null ? "API key" : "bearer token";
    if (token.length() > maxTokenBytes) {
      return refused(kind, "longer than " + maxTokenBytes + " bytes (" + token.length() + ")");
    }
    try {
      return Authentication.accepted(caller(token, apiKey != null));
    } catch (Rejected e) {
      return refused(kind, e.getMessage());
    } catch (Unavailable e) {
      LOG.warn("Could not check a {}: {}; answering 503", kind, e.getMessage());
      return Authentication.unavailable(e.retryAfter());
    }
  }

  private Caller caller(String token, boolean apiKeyHeader) throws Rejected, Unavailable {
    Caller byKey = keys == null ? null : keys.find(token);
    if (byKey != null) {
      return byKey;
    }
    if (apiKeyHeader) {
      throw new Rejected("not a known API key");
    }
    if (jwt != null && JwtAccessTokens.looksLikeJwt(token)) {
      return jwt.verify(token);
    }
    if (introspection != null) {
      return introspection.verify(token);
    }
    throw new Rejected(jwt == null ? "not a known API key" : "not a JWT, and no introspection is configured");
  }

  private static Authentication refused(String kind, String reason) {
    LOG.debug("Refused a {}: {}", kind, reason);
    return Authentication.invalid();
  }

  @Override
  public ProtectedResource protectedResource() {
    return metadata;
  }
}
