package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import java.net.IDN;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Where a connector may call: http and https URLs to public hosts, on ports 80 and 443 by default.
 * A URL is parsed and normalised first (IDNA to ASCII; legacy IPv4 forms such as
 * {@code 2130706433}, {@code 0177.0.0.1} or {@code 0x7f.1} read as the OS resolver would read
 * them); a URL with credentials, an internationalised host not on the allow-list, or a local name
 * ({@code localhost}, {@code *.internal}, a single label) is refused. Every address the host
 * resolves to must then be public: loopback, private, link-local, CGNAT, unique-local, multicast,
 * reserved, documentation, benchmark and cloud metadata addresses are refused, and so is a name
 * with one such answer among public ones. A DNS error or an empty answer refuses the call.
 *
 * <pre>{@code
 * UrlPolicy.defaults().allowHostSuffixes("stripe.com").allowPorts(8443)
 * }</pre>
 *
 * <p>Immutable; each {@code allow…} method answers a copy.
 */
public final class UrlPolicy {
  private static final Set<Integer> DEFAULT_PORTS = Set.of(80, 443);
  private static final int MAX_URL_LENGTH = 8192;
  private static final List<String> LOCAL_SUFFIXES =
      List.of(".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan", ".intranet");

  private final Set<String> hosts;
  private final Set<String> suffixes;
  private final Set<Integer> ports;
  private final Set<String> addresses;

  private UrlPolicy(Set<String> hosts, Set<String> suffixes, Set<Integer> ports, Set<String> addresses) {
    this.hosts = Set.copyOf(hosts);
    this.suffixes = Set.copyOf(suffixes);
    this.ports = Set.copyOf(ports);
    this.addresses = Set.copyOf(addresses);
  }

  /** Any public host on ports 80 and 443; no address outside the public internet. */
  public static UrlPolicy defaults() {
    return new UrlPolicy(Set.of(), Set.of(), DEFAULT_PORTS, Set.of());
  }

  /**
   * A copy that calls only the hosts listed here and under {@link #allowHostSuffixes} (both lists
   * empty: any public host). A listed internationalised name is allowed in its exact form.
   */
  public UrlPolicy allowHosts(String... names) {
    Set<String> more = new LinkedHashSet<>(hosts);
    for (String name : names) {
      more.add(asciiName(name));
    }
    return new UrlPolicy(more, suffixes, ports, addresses);
  }

  /** A copy that also calls {@code example.com} and every name under it, for each suffix given. */
  public UrlPolicy allowHostSuffixes(String... domains) {
    Set<String> more = new LinkedHashSet<>(suffixes);
    for (String domain : domains) {
      String ascii = asciiName(domain.startsWith(".") ? domain.substring(1) : domain);
      if (!ascii.contains(".")) {
        throw new IllegalArgumentException("A host suffix must have at least two labels (e.g. \"example.com\"), got \"" + domain + "\".");
      }
      more.add(ascii);
    }
    return new UrlPolicy(hosts, more, ports, addresses);
  }

  /** A copy that also calls these ports (80 and 443 are always allowed). */
  public UrlPolicy allowPorts(int... extra) {
    Set<Integer> more = new LinkedHashSet<>(ports);
    for (int port : extra) {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("A port is 1..65535, got " + port);
      }
      more.add(port);
    }
    return new UrlPolicy(hosts, suffixes, more, addresses);
  }

  /**
   * A copy that may connect to these exact addresses even though they are not public (a sidecar
   * on loopback, a test's listener): IP literals only, one address each, no ranges. Every other
   * rule still applies, and every other non-public address stays refused.
   *
   * @throws IllegalArgumentException when an entry is not an IP literal
   */
  public UrlPolicy allowAddresses(String... literals) {
    Set<String> more = new LinkedHashSet<>(addresses);
    for (String literal : literals) {
      InetAddress address = literal == null ? null : literal(literal);
      if (address == null) {
        throw new IllegalArgumentException("allowAddresses takes IP literals such as \"127.0.0.1\" or \"::1\", got \"" + literal + "\".");
      }
      more.add(key(address));
    }
    return new UrlPolicy(hosts, suffixes, ports, more);
  }

  /**
   * Parses, normalises and checks {@code url} against everything but DNS (the addresses are vetted
   * when {@link OutboundHttp} connects, and only those are connected to).
   *
   * @return the normalised target
   * @throws FusionError {@code OUTBOUND_BLOCKED} naming the host and the reason
   */
  public Target check(String url) {
    try {
      return parse(url);
    } catch (Blocked blocked) {
      throw Refusals.blocked(blocked);
    }
  }

  /** A normalised URL the policy let through: lower-case ASCII host (an IPv6 literal without brackets). */
  public record Target(String scheme, String host, int port, String pathAndQuery) {
    /** The normalised URL, as the client sends it. */
    public String url() {
      String authority = host.contains(":") ? "[" + host + "]" : host;
      return scheme + "://" + authority + ":" + port + pathAndQuery;
    }
  }

  Target parse(String url) throws Blocked {
    if (url == null || url.isEmpty() || url.length() > MAX_URL_LENGTH) {
      throw new Blocked("", Blocked.Reason.MALFORMED_URL);
    }
    for (int i = 0; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c <= 0x20 || c == 0x7f || c == '\\') {
        throw new Blocked("", Blocked.Reason.MALFORMED_URL);
      }
    }
    int sep = url.indexOf("://");
    if (sep <= 0 || !url.substring(0, sep).chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 0x80
        || c == '+' || c == '-' || c == '.')) {
      throw new Blocked("", Blocked.Reason.MALFORMED_URL);
    }
    String scheme = url.substring(0, sep).toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new Blocked("", Blocked.Reason.SCHEME);
    }
    String rest = url.substring(sep + 3);
    int end = indexOfAny(rest, "/?#");
    String authority = rest.substring(0, end);
    String pathAndQuery = rest.substring(end);
    int hash = pathAndQuery.indexOf('#');
    if (hash >= 0) {
      pathAndQuery = pathAndQuery.substring(0, hash);
    }
    if (!pathAndQuery.startsWith("/")) {
      pathAndQuery = "/" + pathAndQuery;
    }
    if (authority.contains("@")) {
      throw new Blocked("", Blocked.Reason.CREDENTIALS);
    }
    String hostText;
    String portText = "";
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      if (close < 0) {
        throw new Blocked("", Blocked.Reason.MALFORMED_URL);
      }
      hostText = authority.substring(1, close);
      String after = authority.substring(close + 1);
      if (!after.isEmpty() && !after.startsWith(":")) {
        throw new Blocked("", Blocked.Reason.MALFORMED_URL);
      }
      portText = after.isEmpty() ? "" : after.substring(1);
      if (hostText.isEmpty() || !hostText.contains(":")
          || !hostText.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 0x80 || c == ':' || c == '.')) {
        throw new Blocked("", Blocked.Reason.MALFORMED_URL);
      }
    } else {
      int colon = authority.indexOf(':');
      hostText = colon < 0 ? authority : authority.substring(0, colon);
      portText = colon < 0 ? "" : authority.substring(colon + 1);
    }
    int port = port(portText, scheme);
    Host host = host(hostText, authority.startsWith("["));
    if (host.address != null) {
      Range range = AddressRanges.classify(host.address);
      if (range != null && !addresses.contains(key(host.address))) {
        throw new Blocked(host.name, Blocked.Reason.NON_PUBLIC_ADDRESS, range);
      }
    } else {
      if (host.international && !hosts.contains(host.name)) {
        throw new Blocked(host.name, Blocked.Reason.NON_ASCII_HOST);
      }
      if (isLocalName(host.name) && !hosts.contains(host.name)) {
        throw new Blocked(host.name, Blocked.Reason.LOCAL_NAME);
      }
    }
    if (!hostAllowed(host.name)) {
      throw new Blocked(host.name, Blocked.Reason.HOST_NOT_ALLOWED);
    }
    if (!ports.contains(port)) {
      throw new Blocked(host.name, Blocked.Reason.PORT_NOT_ALLOWED);
    }
    return new Target(scheme, host.name, port, pathAndQuery);
  }

  /**
   * The addresses {@code host} resolves to, every one of them vetted; refused when any is not
   * public (unless allowed by {@link #allowAddresses}), on a DNS error and on an empty answer.
   */
  List<InetAddress> vet(String host, HostResolver resolver) throws Blocked {
    InetAddress literal = literal(host);
    if (literal != null) {
      Range range = AddressRanges.classify(literal);
      if (range != null && !addresses.contains(key(literal))) {
        throw new Blocked(host, Blocked.Reason.NON_PUBLIC_ADDRESS, range);
      }
      return List.of(literal);
    }
    List<InetAddress> answer;
    try {
      answer = resolver.resolve(host);
    } catch (UnknownHostException | RuntimeException e) {
      throw new Blocked(host, Blocked.Reason.DNS_FAILED);
    }
    if (answer == null || answer.isEmpty()) {
      throw new Blocked(host, Blocked.Reason.DNS_ANSWER);
    }
    List<InetAddress> vetted = new ArrayList<>(answer.size());
    for (InetAddress address : answer) {
      if (address == null) {
        throw new Blocked(host, Blocked.Reason.DNS_ANSWER);
      }
      Range range = AddressRanges.classify(address);
      if (range != null && !addresses.contains(key(address))) {
        throw new Blocked(host, Blocked.Reason.NON_PUBLIC_ADDRESS, range);
      }
      try {
        // A fresh instance carrying our host name: nothing downstream can trigger another lookup.
        vetted.add(InetAddress.getByAddress(host, address.getAddress()));
      } catch (UnknownHostException e) {
        throw new Blocked(host, Blocked.Reason.DNS_ANSWER);
      }
    }
    return List.copyOf(vetted);
  }

  private boolean hostAllowed(String host) {
    if (hosts.isEmpty() && suffixes.isEmpty()) {
      return true;
    }
    if (hosts.contains(host)) {
      return true;
    }
    for (String suffix : suffixes) {
      if (host.equals(suffix) || host.endsWith("." + suffix)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isLocalName(String host) {
    if (!host.contains(".") || host.equals("localhost")) {
      return true;
    }
    for (String suffix : LOCAL_SUFFIXES) {
      if (host.endsWith(suffix)) {
        return true;
      }
    }
    return false;
  }

  private static int port(String text, String scheme) throws Blocked {
    if (text.isEmpty()) {
      return scheme.equals("https") ? 443 : 80;
    }
    if (text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new Blocked("", Blocked.Reason.MALFORMED_URL);
    }
    int port = Integer.parseInt(text);
    if (port < 1 || port > 65535) {
      throw new Blocked("", Blocked.Reason.MALFORMED_URL);
    }
    return port;
  }

  /** A normalised host: its ASCII name (or literal's text) and, for a literal, the address. */
  private record Host(String name, InetAddress address, boolean international) {}

  private static Host host(String text, boolean bracketed) throws Blocked {
    if (text.isEmpty() || text.contains("%")) {
      throw new Blocked("", Blocked.Reason.MALFORMED_URL);
    }
    if (bracketed) {
      InetAddress v6 = literal(text);
      if (v6 == null) {
        throw new Blocked("", Blocked.Reason.MALFORMED_URL);
      }
      return new Host(v6.getHostAddress(), v6, false);
    }
    String ascii;
    try {
      ascii = IDN.toASCII(text, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new Blocked("", Blocked.Reason.MALFORMED_URL);
    }
    if (ascii.endsWith(".")) {
      ascii = ascii.substring(0, ascii.length() - 1);
    }
    if (ascii.isEmpty() || Arrays.stream(ascii.split("\\.", -1)).anyMatch(l -> l.isEmpty() || l.length() > 63)) {
      throw new Blocked("", Blocked.Reason.MALFORMED_URL);
    }
    if (Ipv4Forms.endsInNumber(ascii)) {
      byte[] bytes = Ipv4Forms.parse(ascii);
      if (bytes == null) {
        throw new Blocked("", Blocked.Reason.MALFORMED_URL);
      }
      try {
        InetAddress v4 = InetAddress.getByAddress(bytes);
        return new Host(v4.getHostAddress(), v4, false);
      } catch (UnknownHostException e) {
        throw new Blocked("", Blocked.Reason.MALFORMED_URL);
      }
    }
    boolean international = !text.chars().allMatch(c -> c < 0x80)
        || Arrays.stream(ascii.split("\\.")).anyMatch(l -> l.startsWith("xn--"));
    return new Host(ascii, null, international);
  }

  /** The address an IP literal names (dotted quad or IPv6 text), or {@code null} for a name. */
  static InetAddress literal(String text) {
    String bare = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
    try {
      if (bare.contains(":")) {
        if (!bare.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 0x80 || c == ':' || c == '.')) {
          return null;
        }
        // Hex digits, colons and dots only: the JDK parses it as a literal and never looks it up.
        return InetAddress.getByName(bare);
      }
      if (bare.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
        byte[] bytes = Ipv4Forms.parse(bare);
        return bytes == null || bare.matches(".*(^|\\.)0\\d.*") ? null : InetAddress.getByAddress(bytes);
      }
    } catch (UnknownHostException e) {
      return null;
    }
    return null;
  }

  /** An address's identity for {@link #allowAddresses}: its bytes (a mapped IPv6 form is an IPv4 address). */
  private static String key(InetAddress address) {
    return HexFormat.of().formatHex(address.getAddress());
  }

  private static String asciiName(String name) {
    Objects.requireNonNull(name, "host");
    try {
      String ascii = IDN.toASCII(name, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
      if (ascii.isEmpty()) {
        throw new IllegalArgumentException("A host must not be empty.");
      }
      return ascii;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"" + name + "\" is not a valid host name: " + e.getMessage(), e);
    }
  }

  private static int indexOfAny(String text, String chars) {
    for (int i = 0; i < text.length(); i++) {
      if (chars.indexOf(text.charAt(i)) >= 0) {
        return i;
      }
    }
    return text.length();
  }

  @Override
  public String toString() {
    return "UrlPolicy[hosts=" + hosts + ", suffixes=" + suffixes + ", ports=" + ports
        + ", addresses=" + addresses.size() + "]";
  }
}
