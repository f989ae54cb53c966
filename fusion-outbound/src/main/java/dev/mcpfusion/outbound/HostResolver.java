package dev.mcpfusion.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Looks up a host name's addresses for {@link OutboundHttp}, which vets every address answered
 * and connects to those only. The default is the system resolver; a test or a connector with its
 * own DNS supplies another.
 */
@FunctionalInterface
public interface HostResolver {
  /**
   * Every address of {@code host} (an ASCII name, never an address literal).
   *
   * @throws UnknownHostException when the name does not resolve; the call is refused
   */
  List<InetAddress> resolve(String host) throws UnknownHostException;

  /** The system resolver ({@link InetAddress#getAllByName}). */
  static HostResolver system() {
    return host -> List.of(InetAddress.getAllByName(host));
  }
}
