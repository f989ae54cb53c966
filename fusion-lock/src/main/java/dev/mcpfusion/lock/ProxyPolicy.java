package dev.mcpfusion.lock;

import dev.mcpfusion.annotation.ProxyUpstream;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a {@code @Proxy} action's upstream may be called, as its {@code @ProxyUpstream} declares
 * (on the router, else on its package): the hosts and schemes, the response byte cap and the
 * timeouts. The server's configuration may only narrow it.
 *
 * @param hosts the host names and {@code *.domain} patterns, sorted
 * @param schemes {@code http} and/or {@code https}, sorted
 * @param maxResponseBytes the most bytes of an answer read
 * @param connectTimeoutMs the connect timeout in milliseconds
 * @param timeoutMs the deadline of a whole call in milliseconds
 */
public record ProxyPolicy(List<String> hosts, List<String> schemes, long maxResponseBytes, long connectTimeoutMs,
    long timeoutMs) {

  public ProxyPolicy {
    hosts = List.copyOf(new TreeSet<>(hosts));
    schemes = List.copyOf(new TreeSet<>(schemes));
  }

  /** The declaration of {@code upstream} in force for {@code router}, or {@code null} when none. */
  static ProxyPolicy of(Class<?> router, String upstream) {
    ProxyUpstream declared = find(router.getAnnotationsByType(ProxyUpstream.class), upstream);
    if (declared == null && router.getPackage() != null) {
      declared = find(router.getPackage().getAnnotationsByType(ProxyUpstream.class), upstream);
    }
    return declared == null ? null : new ProxyPolicy(List.of(declared.hosts()), List.of(declared.schemes()),
        declared.maxResponseBytes(), declared.connectTimeoutMs(), declared.timeoutMs());
  }

  private static ProxyUpstream find(ProxyUpstream[] declared, String upstream) {
    for (ProxyUpstream d : declared) {
      if (d.name().equals(upstream)) {
        return d;
      }
    }
    return null;
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("connectTimeoutMs", connectTimeoutMs);
    tree.put("hosts", hosts);
    tree.put("maxResponseBytes", maxResponseBytes);
    tree.put("schemes", schemes);
    tree.put("timeoutMs", timeoutMs);
    return tree;
  }

  static ProxyPolicy fromTree(TreeReader r) {
    return new ProxyPolicy(r.strings("hosts"), r.strings("schemes"), r.integer("maxResponseBytes"),
        r.integer("connectTimeoutMs"), r.integer("timeoutMs"));
  }
}
