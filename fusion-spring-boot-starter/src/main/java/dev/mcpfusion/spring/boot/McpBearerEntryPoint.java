package dev.mcpfusion.spring.boot;

import dev.mcpfusion.http.ProtectedResource;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.web.client.RestClientResponseException;

/**
 * How Spring Security answers a request to the MCP endpoint it did not authenticate, in the words
 * the endpoint itself uses: {@code 401} with {@code WWW-Authenticate: Bearer resource_metadata="…"}
 * naming the configured metadata document (never one derived from the request's Host), plus
 * {@code error="invalid_token"} when a token was sent but refused; a JSON-RPC error body. The reason
 * a token was refused is logged at DEBUG and never sent: Spring's own entry point would put the
 * decoder's message in {@code error_description}.
 *
 * <p>A token that could not be checked because the issuer did not answer (Spring's
 * {@link AuthenticationServiceException}) is a {@code 503} with {@code Retry-After}, not a {@code 401}:
 * a client told its valid token is invalid would throw it away. The delay is the issuer's own when
 * it answered 5xx or 429 with a {@code Retry-After} in seconds, else {@link #RETRY_AFTER_SECONDS}.
 */
final class McpBearerEntryPoint implements AuthenticationEntryPoint, AuthenticationFailureHandler {
  private static final Logger log = LoggerFactory.getLogger(McpBearerEntryPoint.class);
  /**
   * Seconds a client waits before retrying a token the issuer's outage kept from being checked, when
   * the issuer named no delay. Spring's decoder keeps no failure (the next token makes it ask the
   * issuer's metadata or key set again), so no time follows from the cause: this paces clients,
   * sparing an issuer in trouble a retry per request.
   */
  static final int RETRY_AFTER_SECONDS = 10;
  /** The longest delay passed on from an issuer's own {@code Retry-After}. */
  private static final long MAX_RETRY_AFTER_SECONDS = 3600;

  private final ProtectedResource metadata;

  McpBearerEntryPoint(ProtectedResource metadata) {
    this.metadata = metadata;
  }

  @Override
  public void commence(HttpServletRequest request, HttpServletResponse response,
      AuthenticationException reason) throws IOException {
    boolean invalidToken = reason instanceof OAuth2AuthenticationException;
    if (invalidToken) {
      log.debug("Refused a bearer token: {}", reason.getMessage());
    }
    response.setHeader("WWW-Authenticate", "Bearer resource_metadata=\"" + metadata.metadataUrl() + "\""
        + (invalidToken ? ", error=\"invalid_token\"" : ""));
    send(response, 401, JsonRpc.INVALID_REQUEST, invalidToken
        ? "Unauthorized: the access token is not valid for this server; get a new one."
        : "Unauthorized: send an access token (Authorization: Bearer …).");
  }

  @Override
  public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
      AuthenticationException failure) throws IOException {
    if (failure instanceof AuthenticationServiceException) {
      log.warn("A bearer token could not be checked: the issuer did not answer ({})",
          failure.getClass().getSimpleName());
      long seconds = retryAfterSeconds(failure);
      response.setHeader("Retry-After", Long.toString(seconds));
      send(response, 503, JsonRpc.INTERNAL_ERROR, "Service Unavailable: the access token cannot be"
          + " checked now (its issuer does not answer); retry in " + seconds
          + " s with the same token.");
      return;
    }
    commence(request, response, failure);
  }

  /**
   * The issuer's own {@code Retry-After} (delta-seconds, at least 1, at most an hour) when an answer
   * of its in {@code failure}'s causes carried one, else {@link #RETRY_AFTER_SECONDS}.
   */
  static long retryAfterSeconds(Throwable failure) {
    Throwable cause = failure;
    for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
      if (cause instanceof RestClientResponseException answer && answer.getResponseHeaders() != null) {
        String value = answer.getResponseHeaders().getFirst("Retry-After");
        if (value != null && value.strip().matches("\\d{1,9}")) {
          return Math.max(1, Math.min(Long.parseLong(value.strip()), MAX_RETRY_AFTER_SECONDS));
        }
      }
    }
    return RETRY_AFTER_SECONDS;
  }

  private static void send(HttpServletResponse response, int status, int code, String message)
      throws IOException {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("jsonrpc", "2.0");
    body.put("id", null);
    body.put("error", error);
    byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.setContentType("application/json");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }
}
