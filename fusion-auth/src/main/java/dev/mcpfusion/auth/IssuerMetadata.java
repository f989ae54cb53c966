package dev.mcpfusion.auth;

import com.nimbusds.jose.util.JSONObjectUtils;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authorization server's metadata (RFC 8414, or OpenID Connect discovery): where its key set
 * and its introspection endpoint are. Fetched when first needed, not at startup (a connector starts
 * even while its issuer is down), and then kept; a failed fetch is retried no sooner than
 * {@link #RETRY} later.
 */
final class IssuerMetadata {
  private static final Logger LOG = LoggerFactory.getLogger(IssuerMetadata.class);
  static final Duration RETRY = Duration.ofSeconds(10);
  private static final int MAX_BYTES = 64 * 1024;

  /** What the metadata says. */
  record Endpoints(URI jwksUri, URI introspectionEndpoint) {}

  private final String issuer;
  private final HttpClient http;
  private Endpoints endpoints;
  private long nextTryNanos;

  IssuerMetadata(String issuer, HttpClient http) {
    this.issuer = issuer;
    this.http = http;
  }

  /**
   * The endpoints, fetched on first use.
   *
   * @throws Unavailable when no candidate answered (or one failed less than {@link #RETRY} ago)
   */
  synchronized Endpoints endpoints() throws Rejected, Unavailable {
    if (endpoints != null) {
      return endpoints;
    }
    long now = System.nanoTime();
    if (nextTryNanos != 0 && now - nextTryNanos < 0) {
      throw new Unavailable("the issuer's metadata is unavailable (asked again after " + RETRY + ")",
          java.time.Duration.ofNanos(nextTryNanos - now));
    }
    for (URI candidate : candidates(issuer)) {
      try {
        Map<String, Object> json = fetchJson(http, HttpRequest.newBuilder(candidate).GET());
        if (json == null) {
          continue;
        }
        if (!issuer.equals(json.get("issuer"))) {
          LOG.warn("The metadata at {} names the issuer {}, not {}; ignored", candidate,
              json.get("issuer"), issuer);
          continue;
        }
        Object jwks = json.get("jwks_uri");
        Object introspection = json.get("introspection_endpoint");
        endpoints = new Endpoints(jwks instanceof String s ? URI.create(s) : null,
            introspection instanceof String s ? URI.create(s) : null);
        return endpoints;
      } catch (IOException | IllegalArgumentException | ParseException e) {
        LOG.debug("No issuer metadata at {} ({})", candidate, e.getClass().getSimpleName());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Rejected("interrupted while fetching the issuer's metadata");
      }
    }
    nextTryNanos = now + RETRY.toNanos();
    LOG.warn("Could not read the metadata of the issuer {}; requests with a token answer 503 until it does", issuer);
    throw new Unavailable("the issuer's metadata is unavailable", RETRY);
  }

  /**
   * Where the metadata may be, in the order the MCP authorization specification lists: RFC 8414
   * with the well-known path inserted, OpenID Connect inserted, then both appended to the issuer.
   */
  static List<URI> candidates(String issuer) {
    URI uri = URI.create(issuer);
    String path = uri.getRawPath() == null || uri.getRawPath().equals("/") ? "" : uri.getRawPath();
    String origin = uri.getScheme() + "://" + uri.getRawAuthority();
    List<URI> out = new ArrayList<>();
    out.add(URI.create(origin + "/.well-known/oauth-authorization-server" + path));
    if (!path.isEmpty()) {
      out.add(URI.create(origin + "/.well-known/openid-configuration" + path));
      out.add(URI.create(origin + path + "/.well-known/oauth-authorization-server"));
    }
    out.add(URI.create(origin + path + "/.well-known/openid-configuration"));
    return out;
  }

  /**
   * A JSON object from {@code request} (200 only, at most 64 kB), or {@code null} for another
   * status below 500 but 429; a 5xx or a 429 is a {@link Busy}, as a server that did not answer.
   */
  static Map<String, Object> fetchJson(HttpClient http, HttpRequest.Builder request)
      throws IOException, InterruptedException, ParseException {
    HttpResponse<InputStream> response = http.send(request.timeout(Duration.ofSeconds(5))
        .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      if (response.statusCode() >= 500 || response.statusCode() == 429) {
        throw new Busy(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null));
      }
      if (response.statusCode() != 200) {
        return null;
      }
      byte[] bytes = body.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        throw new IOException("answer over " + MAX_BYTES + " bytes");
      }
      return JSONObjectUtils.parse(new String(bytes, StandardCharsets.UTF_8));
    }
  }

  /**
   * A server that answered 5xx or 429, with when it said to come back: its {@code Retry-After} in
   * seconds (an HTTP date is not read), at most an hour, or {@code null} when it said nothing usable.
   */
  static final class Busy extends IOException {
    private static final long serialVersionUID = 1L;
    private static final long MAX_SECONDS = Duration.ofHours(1).toSeconds();

    private final transient Duration retryAfter;

    Busy(int status, String retryAfter) {
      super("status " + status, null);
      this.retryAfter = retryAfter != null && retryAfter.strip().matches("\\d{1,9}")
          ? Duration.ofSeconds(Math.min(Long.parseLong(retryAfter.strip()), MAX_SECONDS)) : null;
    }

    /** What the server asked for, else {@code otherwise}. */
    static Duration retryAfter(IOException e, Duration otherwise) {
      return e instanceof Busy busy && busy.retryAfter != null ? busy.retryAfter : otherwise;
    }
  }
}
