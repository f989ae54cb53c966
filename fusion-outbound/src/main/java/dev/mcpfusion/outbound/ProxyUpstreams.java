package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.json.Json;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The upstreams of {@code @Proxy} actions, by name: each a base URL, the guarded client that calls
 * it (its {@link UrlPolicy}, allow-list, byte cap, timeouts and breaker) and the headers every call
 * carries (credentials, say). The processor's {@code X_Proxy} takes one in its constructor, which
 * refuses an upstream an action names and this does not configure.
 *
 * <pre>{@code
 * ProxyUpstreams upstreams = ProxyUpstreams.builder()
 *     .upstream("billing-api", "https://billing.example.com/v1", http)
 *     .header("billing-api", "Authorization", "Bearer " + token)
 *     .build();
 * server.register(new InvoiceApi_Proxy(upstreams));
 * }</pre>
 *
 * <p>An answer becomes the action's result or an envelope that names the upstream: a 2xx JSON
 * object or array is the result; a 404 is {@code NOT_FOUND}; any other 4xx {@code UPSTREAM_ERROR};
 * a 5xx {@code UPSTREAM_UNAVAILABLE} (and a failure for the breaker); a body that is not the JSON
 * the action declares {@code UPSTREAM_ERROR}. The upstream's own error text is never passed on. The
 * client's own envelopes (a refused URL, the byte cap, a timeout, an open circuit) gain the detail
 * {@code api}: the upstream's configured name.
 */
public final class ProxyUpstreams {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");

  private final Map<String, Upstream> upstreams;

  private ProxyUpstreams(Map<String, Upstream> upstreams) {
    this.upstreams = Map.copyOf(upstreams);
  }

  /** An empty builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Arguments by name, in order, {@code null} values kept (they are left out of the call): what
   * {@code X_Proxy} passes as the path variables and the query or body.
   */
  public static Map<String, Object> args(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("args takes names and values in pairs");
    }
    Map<String, Object> args = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      args.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return args;
  }

  /**
   * Checks that {@code upstream} is configured, when {@code X_Proxy} is constructed.
   *
   * @throws IllegalStateException naming the action and the fix
   */
  public void require(String upstream, String action) {
    if (!upstreams.containsKey(upstream)) {
      throw new IllegalStateException("The @Proxy action " + action + " calls the upstream \"" + upstream
          + "\", which these ProxyUpstreams do not configure (configured: " + upstreams.keySet().stream().sorted().toList()
          + "). Add it: ProxyUpstreams.builder().upstream(\"" + upstream + "\", baseUrl, http).");
    }
  }

  /**
   * These upstreams bounded by the policies a router declares ({@code @ProxyUpstream}): each
   * declared upstream's base URL must be on a declared host and scheme, every redirect is held to
   * them too, and its client reads at most the declared bytes within the declared timeouts (the
   * configured client's own, when lower). An upstream the router declares and these do not
   * configure is left to {@link #require}.
   *
   * @throws IllegalStateException naming the router, the upstream and the fix when a configured
   *     base URL is outside its declaration
   */
  public ProxyUpstreams within(String router, DeclaredUpstream... declared) {
    Map<String, Upstream> bounded = new LinkedHashMap<>(upstreams);
    for (DeclaredUpstream policy : declared) {
      Upstream u = upstreams.get(policy.name());
      if (u == null) {
        continue;
      }
      if (!policy.allowsUrl(u.baseUrl)) {
        throw new IllegalStateException("The upstream \"" + policy.name() + "\" of " + router + " is configured with a"
            + " base URL at " + DeclaredUpstream.origin(u.baseUrl) + ", outside what " + router + " declares it may call (@ProxyUpstream: "
            + policy.where() + "). Configure a base URL on a declared host and scheme, or widen the declaration"
            + " in the code (the lockfile records it, so the change shows as drift).");
      }
      bounded.put(policy.name(), new Upstream(u.baseUrl, u.http.within(policy), u.headers));
    }
    return new ProxyUpstreams(bounded);
  }

  /** Calls the upstream and answers its JSON object. */
  public Map<String, Object> object(String upstream, String method, String path, Map<String, Object> pathArgs,
      Map<String, Object> rest) {
    Object json = call(upstream, method, path, pathArgs, rest);
    if (json instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) map;
      return object;
    }
    throw notTheShape(upstream, method, path, "a JSON object");
  }

  /** Calls the upstream and answers its JSON array of objects. */
  public List<Map<String, Object>> array(String upstream, String method, String path, Map<String, Object> pathArgs,
      Map<String, Object> rest) {
    Object json = call(upstream, method, path, pathArgs, rest);
    if (json instanceof List<?> list) {
      List<Map<String, Object>> rows = new ArrayList<>(list.size());
      for (Object item : list) {
        if (!(item instanceof Map<?, ?>)) {
          throw notTheShape(upstream, method, path, "a JSON array of objects");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> row = (Map<String, Object>) item;
        rows.add(row);
      }
      return rows;
    }
    throw notTheShape(upstream, method, path, "a JSON array of objects");
  }

  private Object call(String name, String method, String path, Map<String, Object> pathArgs, Map<String, Object> rest) {
    Upstream upstream = upstreams.get(name);
    if (upstream == null) {
      require(name, method + " " + path);
    }
    String expanded = ProxyPaths.expand(path, pathArgs);
    boolean inQuery = method.equals("GET") || method.equals("DELETE");
    String url = upstream.baseUrl + expanded + (inQuery ? ProxyPaths.query(rest) : "");
    OutboundRequest request = inQuery
        ? new OutboundRequest(method, url, Map.of(), null, null)
        : OutboundRequest.of(method, url, Json.write(ProxyPaths.present(rest)), "application/json");
    for (Map.Entry<String, String> header : upstream.headers.entrySet()) {
      request = request.header(header.getKey(), header.getValue());
    }
    request = request.header("Accept", "application/json");
    OutboundResponse response;
    try {
      response = upstream.http.send(request);
    } catch (FusionError refused) {
      // The client's envelopes name the host; the agent knows the upstream by the name configured.
      throw refused.detail("api", name);
    }
    int status = response.status();
    String call = method + " " + path;
    if (status == 404) {
      throw ProxyAnswers.notFound(name, call);
    }
    if (status >= 500) {
      throw ProxyAnswers.failed(name, call, status);
    }
    if (status < 200 || status >= 300) {
      throw ProxyAnswers.refused(name, call, status);
    }
    try {
      return Json.parse(response.bodyText());
    } catch (IllegalArgumentException notJson) {
      throw notTheShape(name, method, path, "JSON");
    }
  }

  private static FusionError notTheShape(String upstream, String method, String path, String expected) {
    return ProxyAnswers.notTheShape(upstream, method + " " + path, expected);
  }

  private record Upstream(String baseUrl, OutboundHttp http, Map<String, String> headers) {}

  /** Names the upstreams; {@link #build} answers the immutable set. */
  public static final class Builder {
    private final Map<String, Upstream> upstreams = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Names an upstream: its base URL (absolute http or https, no query; the action's path is
     * appended) and the client that calls it, whose policy must allow the base URL's host.
     *
     * @throws IllegalArgumentException for a name outside {@code [a-z][a-z0-9-]*}, a name given
     *     twice, or a base URL that is not absolute http(s) without query or fragment
     */
    public Builder upstream(String name, String baseUrl, OutboundHttp http) {
      Objects.requireNonNull(http, "http");
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("An upstream name matches [a-z][a-z0-9-]*, like the @Proxy(upstream) that"
            + " names it; got \"" + name + "\".");
      }
      if (upstreams.containsKey(name)) {
        throw new IllegalArgumentException("The upstream \"" + name + "\" is configured twice; name it once.");
      }
      upstreams.put(name, new Upstream(base(name, baseUrl), http, Map.of()));
      return this;
    }

    /** A header every call to {@code upstream} carries (an {@code Authorization}, say). */
    public Builder header(String upstream, String header, String value) {
      Upstream u = upstreams.get(upstream);
      if (u == null) {
        throw new IllegalArgumentException("header(\"" + upstream + "\", …) names no upstream configured"
            + " before it; call upstream(\"" + upstream + "\", baseUrl, http) first.");
      }
      Map<String, String> headers = new LinkedHashMap<>(u.headers);
      headers.put(Objects.requireNonNull(header, "header"), Objects.requireNonNull(value, "value"));
      // The request refuses framing headers and Host: refused here, where the mistake is made.
      new OutboundRequest("GET", u.baseUrl, headers, null, null);
      upstreams.put(upstream, new Upstream(u.baseUrl, u.http, headers));
      return this;
    }

    /** The upstreams. */
    public ProxyUpstreams build() {
      return new ProxyUpstreams(upstreams);
    }

    private static String base(String name, String baseUrl) {
      URI uri;
      try {
        uri = new URI(Objects.requireNonNull(baseUrl, "baseUrl"));
      } catch (URISyntaxException e) {
        uri = null;
      }
      if (uri == null || !uri.isAbsolute() || uri.getHost() == null || uri.getRawQuery() != null
          || uri.getRawFragment() != null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
        throw new IllegalArgumentException("The base URL of upstream \"" + name + "\" must be an absolute http or https"
            + " URL without query or fragment, like https://api.example.com/v1; got \"" + baseUrl + "\".");
      }
      return baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }
  }
}
