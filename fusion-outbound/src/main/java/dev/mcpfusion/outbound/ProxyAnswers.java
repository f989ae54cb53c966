package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;

/**
 * The envelopes of a {@code @Proxy} call the upstream answered with an error: each names the
 * upstream (as configured) and the call's method and path template, never the upstream's own
 * error text, which may carry what the agent must not read.
 */
final class ProxyAnswers {
  private ProxyAnswers() {}

  static FusionError notFound(String upstream, String call) {
    return FusionError.of(Codes.NOT_FOUND, "The upstream " + upstream + " has nothing at " + call + " for these arguments (HTTP 404).")
        .recovery("Check the identifiers you passed; list what exists first if another action lists it.")
        .detail("upstream", upstream)
        .detail("status", 404);
  }

  static FusionError failed(String upstream, String call, int status) {
    return FusionError.of(Codes.UPSTREAM_UNAVAILABLE, "The upstream " + upstream + " failed to answer " + call
            + " (HTTP " + status + ").")
        .recovery("Retry once later. If it fails again, tell the user " + upstream + " is failing.")
        .detail("upstream", upstream)
        .detail("status", status);
  }

  static FusionError refused(String upstream, String call, int status) {
    return FusionError.of(Codes.UPSTREAM_ERROR, "The upstream " + upstream + " refused " + call + " (HTTP " + status + ").")
        .recovery("Check the arguments against the action's description; do not retry them unchanged.")
        .detail("upstream", upstream)
        .detail("status", status);
  }

  static FusionError notTheShape(String upstream, String call, String expected) {
    return FusionError.of(Codes.UPSTREAM_ERROR, "The upstream " + upstream + " answered " + call + " with a body that is not "
            + expected + ", so there is nothing to present.")
        .recovery("Do not retry; tell the user " + upstream + " answered in an unexpected format.")
        .detail("upstream", upstream);
  }
}
