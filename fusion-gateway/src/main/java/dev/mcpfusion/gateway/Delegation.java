package dev.mcpfusion.gateway;

import java.time.Instant;
import java.util.Map;

/**
 * The claims of a verified delegation token: who handed work to whom, until when, with which
 * state, in which trace. {@link DelegationVerifier#verify} returns it only for a token that is
 * signed with the shared key, addressed to the verifier, unexpired and not seen before.
 *
 * @param issuer who minted it (the gateway's name)
 * @param subject for whom the work is done (the caller's subject, or {@code local})
 * @param target the specialist it is addressed to (the upstream's name)
 * @param expiresAt when it stops being accepted
 * @param id its unique id (replays are refused by it)
 * @param state the carry-over state the caller handed off with
 * @param traceparent the W3C trace context of the handoff, or {@code null}
 */
public record Delegation(String issuer, String subject, String target, Instant expiresAt,
    String id, Map<String, String> state, String traceparent) {
  public Delegation {
    state = Map.copyOf(state);
  }
}
