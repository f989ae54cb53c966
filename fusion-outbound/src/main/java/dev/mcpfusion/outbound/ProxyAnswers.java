package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;
import java.time.Duration;

/**
 * The status mapping of every {@link ProxyCall}: the envelope for each answer that is not a 2xx.
 * Each names the upstream (as configured), the call's method and path template, the status and,
 * when the API's documentation was given, what the status means there — never the upstream's
 * own error text, which may carry what the agent must not read.
 */
final class ProxyAnswers {
  /** The longest {@code Retry-After} passed on: a longer wait is not one an agent can sit out. */
  private static final long MAX_RETRY_SECONDS = 3600;

  private ProxyAnswers() {}

  static FusionError failure(String upstream, String call, OutboundResponse response, String meaning) {
    int status = response.status();
    String message = "The upstream " + upstream + " answered " + call + " with HTTP " + status
        + (meaning == null || meaning.isBlank() ? "" : ": " + meaning.strip()) + ".";
    FusionError error;
    if (status == 404) {
      error = FusionError.notFound(message)
          .recovery("Check the identifiers you passed; list what exists first if another action lists it.");
    } else if (status == 409) {
      error = FusionError.conflict(message)
          .recovery("Read the current state of what you named, then decide whether to call again.");
    } else if (status == 401 || status == 403) {
      error = FusionError.of(Codes.UPSTREAM_ERROR, message)
          .recovery("The connector's credentials were refused by " + upstream + "; calling again will not help."
              + " Tell the user the connector's access to " + upstream + " needs fixing.");
    } else if (status == 429) {
      error = FusionError.of(Codes.UPSTREAM_UNAVAILABLE, message)
          .recovery("The upstream " + upstream + " is limiting calls: wait, then retry once. If it refuses again,"
              + " tell the user.");
      Duration wait = retryAfter(response.header("retry-after"));
      if (wait != null) {
        error.retryAfter(wait);
      }
    } else if (status >= 500) {
      error = FusionError.of(Codes.UPSTREAM_UNAVAILABLE, message)
          .recovery("Retry once later. If it fails again, tell the user " + upstream + " is failing.");
    } else if (status >= 400) {
      error = FusionError.of(Codes.UPSTREAM_ERROR, message)
          .recovery("Check the arguments against the action's description; do not retry them unchanged.");
    } else {
      // A redirect the client did not follow, or a status outside the classes an API documents.
      error = FusionError.of(Codes.UPSTREAM_ERROR, message)
          .recovery("Do not retry; tell the user " + upstream + " answered in an unexpected way.");
    }
    return error.detail("upstream", upstream).detail("status", status);
  }

  /** A {@code Retry-After} in seconds (the form rate limits use), or {@code null}. */
  static Duration retryAfter(String header) {
    if (header == null || !header.strip().matches("[0-9]{1,9}")) {
      return null;
    }
    return Duration.ofSeconds(Math.min(Long.parseLong(header.strip()), MAX_RETRY_SECONDS));
  }

  static FusionError notTheShape(String upstream, String call, String expected) {
    return FusionError.of(Codes.UPSTREAM_ERROR, "The upstream " + upstream + " answered " + call + " with a body that is not "
            + expected + ", so there is nothing to present.")
        .recovery("Do not retry; tell the user " + upstream + " answered in an unexpected format.")
        .detail("upstream", upstream);
  }
}
