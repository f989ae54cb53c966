package dev.mcpfusion.core;

/**
 * A last look at every message the server is about to send, after redaction: for what detectors
 * cannot know — a policy check per caller, a customer's own DLP, an LLM judge. It sees the message
 * as a plain JSON tree with its {@link Outbound.Channel channel} and the request it belongs to,
 * and returns it unchanged (pass), {@link Outbound#rewrite rewritten}, or
 * {@link Outbound#veto vetoed}.
 *
 * <pre>{@code
 * FusionServer.builder("billing", "1.0.0")
 *     .egressFilter((out, request) -> policy.allows(out.tree(), request)
 *         ? out
 *         : out.veto("POLICY", "This answer is not for this caller."))
 * }</pre>
 *
 * <p>Filters run in registration order on every channel: tool results and error envelopes,
 * prompt messages, resource contents, completion values, progress and log notifications,
 * sampling and elicitation requests, resource-update notifications. A veto, or a filter that
 * throws, never lets the data out: a tool answers an error envelope with an incident id, a prompt,
 * resource or completion request answers a JSON-RPC error with one, a notification is not sent, and
 * a sampling or elicitation request fails in the handler with a {@link FusionError}. A rewrite is
 * written in place of the message; the byte cap measures it again.
 *
 * <p>Implementations must be thread-safe: calls are served concurrently.
 */
@FunctionalInterface
public interface EgressFilter {
  /**
   * Decides what leaves.
   *
   * @param out the message about to be sent
   * @param request the request it belongs to: the call that produced it, or, for a resource-update
   *     notification, the subscriber's {@code resources/subscribe} request
   * @return {@code out} to let it pass, {@code out.rewrite(tree)} or {@code out.veto(code, message)}
   */
  Outbound filter(Outbound out, RequestContext request) throws Exception;
}
