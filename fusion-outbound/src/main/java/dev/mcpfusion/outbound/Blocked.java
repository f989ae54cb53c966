package dev.mcpfusion.outbound;

import java.net.UnknownHostException;

/**
 * A URL or an address the policy refuses. An {@link UnknownHostException} so that the HTTP
 * client's DNS hook may throw it; {@link OutboundHttp} turns it into the agent's
 * {@code OUTBOUND_BLOCKED} envelope, which names the host and the reason, never an address.
 */
final class Blocked extends UnknownHostException {
  private static final long serialVersionUID = 1L;

  /** What the agent reads as the reason; each has its own sentence in {@link Refusals}. */
  enum Reason {
    MALFORMED_URL,
    SCHEME,
    CREDENTIALS,
    NON_ASCII_HOST,
    LOCAL_NAME,
    HOST_NOT_ALLOWED,
    PORT_NOT_ALLOWED,
    NON_PUBLIC_ADDRESS,
    DNS_FAILED,
    DNS_ANSWER
  }

  private final String host;
  private final Reason reason;
  private final transient Range range;

  Blocked(String host, Reason reason) {
    this(host, reason, null);
  }

  Blocked(String host, Reason reason, Range range) {
    super(reason.name());
    this.host = host;
    this.reason = reason;
    this.range = range;
  }

  String host() {
    return host;
  }

  Reason reason() {
    return reason;
  }

  /** The range that refused the address, for {@link Reason#NON_PUBLIC_ADDRESS} (tests read it). */
  Range range() {
    return range;
  }
}
