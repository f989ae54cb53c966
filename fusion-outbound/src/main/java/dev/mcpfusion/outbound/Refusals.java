package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;
import java.util.Locale;

/**
 * The envelopes an agent reads when an outbound call is refused or fails: each names the host
 * (as normalised), never an address a name resolved to, never exception text.
 */
final class Refusals {
  private static final String DO_NOT_RETRY = "Do not retry this URL or another spelling of it. Call a public"
      + " host this connector is allowed to call, or tell the user this URL cannot be reached from here.";

  private Refusals() {}

  static FusionError blocked(Blocked blocked) {
    String host = blocked.host();
    String message = switch (blocked.reason()) {
      case MALFORMED_URL -> "The URL is not a well-formed absolute http or https URL.";
      case SCHEME -> "Only http and https URLs may be called.";
      case CREDENTIALS -> "The URL carries credentials before its host (user@host); outbound calls never send them.";
      case NON_ASCII_HOST -> "The host " + host + " is an internationalised name, which may imitate another name; this connector does not call it.";
      case LOCAL_NAME -> "The host " + host + " is a local network name, which this connector does not call.";
      case HOST_NOT_ALLOWED -> "The host " + host + " is not one this connector may call.";
      case PORT_NOT_ALLOWED -> "The host " + host + " may not be called on this port.";
      case NON_PUBLIC_ADDRESS -> "The host " + host + " is, or resolves to, an address outside the public internet,"
          + " which this connector does not call.";
      case DNS_FAILED -> "The host " + host + " could not be resolved, so it was not called.";
      case DNS_ANSWER -> "The host " + host + " resolved to an empty or malformed answer, so it was not called.";
    };
    String recovery = blocked.reason() == Blocked.Reason.DNS_FAILED
        ? "Check the host name for a typo. If it is right, retry later or tell the user " + host + " cannot be resolved."
        : DO_NOT_RETRY;
    FusionError error = FusionError.of(Codes.OUTBOUND_BLOCKED, message).recovery(recovery)
        .detail("reason", blocked.reason().name().toLowerCase(Locale.ROOT));
    return host.isEmpty() ? error : error.detail("host", host);
  }

  static FusionError redirectBlocked(String host) {
    return FusionError.of(Codes.OUTBOUND_BLOCKED,
            "The host " + host + " redirected to a URL this connector may not call, so the redirect was not followed.")
        .recovery(DO_NOT_RETRY)
        .detail("host", host)
        .detail("reason", "redirect");
  }

  static FusionError tooManyRedirects(String host, int limit) {
    return FusionError.of(Codes.UPSTREAM_UNAVAILABLE,
            "The upstream " + host + " redirected more than " + limit + " times, so the call was abandoned.")
        .recovery("Do not retry the same URL; tell the user " + host + " keeps redirecting.")
        .detail("upstream", host)
        .detail("reason", "redirects");
  }

  static FusionError tooLarge(String host, long limit) {
    return FusionError.of(Codes.UPSTREAM_TOO_LARGE,
            "The answer from " + host + " is larger than the " + limit + " bytes this connector reads, so it was discarded.")
        .recovery("Ask for less: narrow the request with the action's filters or a smaller page, if it has them.")
        .detail("upstream", host)
        .detail("limit_bytes", limit);
  }

  static FusionError timedOut(String host) {
    return FusionError.of(Codes.UPSTREAM_UNAVAILABLE,
            "The upstream " + host + " did not answer in time, so the call was abandoned.")
        .recovery("Retry once later. If it times out again, tell the user " + host + " is not answering.")
        .detail("upstream", host)
        .detail("reason", "timeout");
  }

  static FusionError unreachable(String host) {
    return FusionError.of(Codes.UPSTREAM_UNAVAILABLE,
            "The upstream " + host + " could not be reached: the connection failed or broke.")
        .recovery("Retry once later. If it fails again, tell the user " + host + " is unavailable.")
        .detail("upstream", host)
        .detail("reason", "connection");
  }
}
