package dev.mcpfusion.outbound;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The policy a connector declares for one upstream of its {@code @Proxy} actions
 * ({@code @ProxyUpstream}): the hosts and schemes it may be called at, a response byte cap and
 * timeouts. The processor's {@code X_Proxy} passes it to {@link ProxyUpstreams#within}, which
 * refuses a configured base URL outside it and narrows the configured client to it.
 *
 * @param name the upstream's name
 * @param hosts exact lower-case names or IPv4 addresses, or {@code *.example.com} for every name
 *     under {@code example.com}
 * @param schemes {@code https} and/or {@code http}
 * @param maxResponseBytes the most bytes of an answer read
 * @param connectTimeoutMs the connect timeout in milliseconds
 * @param timeoutMs the deadline of a whole call in milliseconds
 */
public record DeclaredUpstream(String name, List<String> hosts, List<String> schemes, long maxResponseBytes,
    long connectTimeoutMs, long timeoutMs) {

  /**
   * @throws IllegalArgumentException for no host, a scheme other than http or https, or a cap or
   *     timeout that is not positive (the processor checks all of these at compile time)
   */
  public DeclaredUpstream {
    Objects.requireNonNull(name, "name");
    hosts = List.copyOf(hosts);
    schemes = List.copyOf(schemes);
    if (hosts.isEmpty() || schemes.isEmpty()
        || !schemes.stream().allMatch(s -> s.equals("https") || s.equals("http"))
        || maxResponseBytes < 1 || connectTimeoutMs < 1 || timeoutMs < 1) {
      throw new IllegalArgumentException("The declared policy of upstream \"" + name + "\" needs at least one host,"
          + " the schemes https or http, and a positive cap and timeouts; got " + hosts + " " + schemes + " "
          + maxResponseBytes + "/" + connectTimeoutMs + "/" + timeoutMs + ".");
    }
  }

  /** Whether a URL with this scheme and normalised host is inside the declaration. */
  boolean allows(String scheme, String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (!schemes.contains(scheme.toLowerCase(Locale.ROOT))) {
      return false;
    }
    for (String pattern : hosts) {
      if (pattern.startsWith("*.") ? h.endsWith(pattern.substring(1)) : h.equals(pattern)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code baseUrl} (an absolute http(s) URL) is inside the declaration. */
  boolean allowsUrl(String baseUrl) {
    try {
      URI uri = new URI(baseUrl);
      return uri.getScheme() != null && uri.getHost() != null && allows(uri.getScheme(), uri.getHost());
    } catch (URISyntaxException e) {
      return false;
    }
  }

  /** A base URL's scheme and host only: no credentials or path in an error. */
  static String origin(String baseUrl) {
    URI uri = URI.create(baseUrl);
    return uri.getScheme() + "://" + uri.getHost();
  }

  /** How the declaration reads in an error: {@code https://billing.example.com, https://*.example.com}. */
  String where() {
    StringBuilder out = new StringBuilder();
    for (String scheme : schemes) {
      for (String host : hosts) {
        out.append(out.length() == 0 ? "" : ", ").append(scheme).append("://").append(host);
      }
    }
    return out.toString();
  }
}
