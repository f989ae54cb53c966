package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.resilience.Upstream;
import dev.mcpfusion.resilience.Upstreams;
import dev.mcpfusion.wire.Codes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The HTTP client a connector calls REST APIs with. Every URL passes the {@link UrlPolicy}; the
 * host is resolved once per connection, every address answered is vetted, and the socket connects
 * to those addresses only, while the request keeps the URL's {@code Host} header and TLS SNI — a
 * second DNS answer cannot retarget it. Each redirect is checked like a new URL; the answer is
 * read up to a byte cap and within a total deadline; with {@link Builder#breakers} a circuit
 * breaker per host stops calls to an upstream that keeps failing.
 *
 * <pre>{@code
 * OutboundHttp http = OutboundHttp.builder()
 *     .policy(UrlPolicy.defaults().allowHosts("api.example.com"))
 *     .build();
 * OutboundResponse invoice = http.get("https://api.example.com/invoices/42");
 * }</pre>
 *
 * <p>Refusals and failures are {@link FusionError}s the agent can act on:
 * {@code OUTBOUND_BLOCKED} (the policy refused the URL or its addresses), {@code UPSTREAM_TOO_LARGE}
 * (the answer passed the cap), {@code UPSTREAM_UNAVAILABLE} (no connection, a timeout, too many
 * redirects, an open circuit). Each names the host, never an address it resolved to, never
 * exception text. A non-2xx answer is returned as is (a 5xx counts as a failure for the breaker).
 * Thread-safe; build one per connector and {@link #close} it with the server.
 */
public final class OutboundHttp implements AutoCloseable {
  private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

  private final UrlPolicy policy;
  private final OkHttpClient client;
  private final long maxResponseBytes;
  private final int maxRedirects;
  private final Upstreams upstreams;
  private final DeclaredUpstream declared;

  private OutboundHttp(Builder builder) {
    this.declared = null;
    this.policy = builder.policy;
    this.maxResponseBytes = builder.maxResponseBytes;
    this.maxRedirects = builder.maxRedirects;
    this.upstreams = builder.upstreams;
    HostResolver resolver = builder.resolver;
    this.client = new OkHttpClient.Builder()
        // The one lookup per connection: what it answers is vetted, and only that is connected to.
        .dns(host -> policy.vet(host, resolver))
        // A system-wide proxy would connect to the proxy, not to the vetted address.
        .proxy(Proxy.NO_PROXY)
        // Redirects are followed here, each hop checked by the policy like a new URL.
        .followRedirects(false)
        .followSslRedirects(false)
        .retryOnConnectionFailure(false)
        .connectTimeout(builder.connectTimeout)
        .readTimeout(builder.readTimeout)
        .writeTimeout(builder.readTimeout)
        .callTimeout(builder.totalTimeout)
        .build();
  }

  /** {@code base} bounded by a declared policy: its hosts and schemes, and the lower cap and timeouts. */
  private OutboundHttp(OutboundHttp base, DeclaredUpstream declared) {
    this.declared = declared;
    this.policy = base.policy;
    this.maxResponseBytes = Math.min(base.maxResponseBytes, declared.maxResponseBytes());
    this.maxRedirects = base.maxRedirects;
    this.upstreams = base.upstreams;
    // Shares the connection pool and threads; only the shorter deadlines differ.
    this.client = base.client.newBuilder()
        .connectTimeout(Duration.ofMillis(Math.min(base.client.connectTimeoutMillis(), declared.connectTimeoutMs())))
        .callTimeout(Duration.ofMillis(Math.min(base.client.callTimeoutMillis(), declared.timeoutMs())))
        .build();
  }

  /** This client bounded by {@code declared}: the configuration may only narrow a declaration. */
  OutboundHttp within(DeclaredUpstream declared) {
    return new OutboundHttp(this, declared);
  }

  /** A builder with the defaults: {@link UrlPolicy#defaults()}, 5 s / 10 s / 30 s, 1 MiB, 3 redirects. */
  public static Builder builder() {
    return new Builder();
  }

  /** A client with every default. */
  public static OutboundHttp create() {
    return builder().build();
  }

  /** GETs {@code url}; see {@link #send}. */
  public OutboundResponse get(String url) {
    return send(OutboundRequest.get(url));
  }

  /**
   * Sends {@code request}, following up to the configured number of redirects (each one checked
   * by the policy), and answers the final response read in full.
   *
   * @throws FusionError {@code OUTBOUND_BLOCKED}, {@code UPSTREAM_TOO_LARGE} or
   *     {@code UPSTREAM_UNAVAILABLE}, naming the host
   */
  public OutboundResponse send(OutboundRequest request) {
    Objects.requireNonNull(request, "request");
    UrlPolicy.Target target = policy.check(request.url());
    if (declared != null && !declared.allows(target.scheme(), target.host())) {
      throw Refusals.blocked(new Blocked(target.host(), Blocked.Reason.HOST_NOT_ALLOWED));
    }
    String method = request.method();
    byte[] body = request.body();
    String contentType = request.contentType();
    Map<String, String> headers = request.headers();
    String redirectedBy = null;
    for (int hop = 0; ; hop++) {
      OutboundResponse response;
      try {
        response = exchange(target, method, headers, body, contentType);
      } catch (FusionError refused) {
        if (redirectedBy != null && Codes.OUTBOUND_BLOCKED.equals(refused.code())) {
          // The agent asked for the first host: it reads that the redirect was refused, not where it led.
          throw Refusals.redirectBlocked(redirectedBy);
        }
        throw refused;
      }
      String location = response.header("location");
      if (maxRedirects == 0 || !REDIRECTS.contains(response.status()) || location == null) {
        return response;
      }
      if (hop == maxRedirects) {
        throw Refusals.tooManyRedirects(target.host(), maxRedirects);
      }
      UrlPolicy.Target next = redirectTarget(target, location);
      if (response.status() == 303 || (response.status() <= 302 && method.equals("POST"))) {
        method = method.equals("HEAD") ? "HEAD" : "GET";
        body = new byte[0];
        contentType = null;
      }
      if (!next.host().equals(target.host()) || next.port() != target.port()) {
        // The caller's headers (credentials above all) were meant for the first host only.
        headers = Map.of();
      }
      redirectedBy = target.host();
      target = next;
    }
  }

  private UrlPolicy.Target redirectTarget(UrlPolicy.Target from, String location) {
    try {
      String resolved = new URI(from.url()).resolve(new URI(location)).toString();
      UrlPolicy.Target next = policy.parse(resolved);
      if (declared != null && !declared.allows(next.scheme(), next.host())) {
        throw Refusals.redirectBlocked(from.host());
      }
      return next;
    } catch (URISyntaxException | IllegalArgumentException | Blocked e) {
      throw Refusals.redirectBlocked(from.host());
    }
  }

  private OutboundResponse exchange(UrlPolicy.Target target, String method, Map<String, String> headers,
      byte[] body, String contentType) {
    Upstream.Call<OutboundResponse, IOException> call = () -> execute(target, method, headers, body, contentType);
    try {
      return upstreams == null ? call.call() : upstreams.upstream(target.host()).call(call);
    } catch (ServerFailure failure) {
      return failure.response;
    } catch (InterruptedIOException timeout) {
      throw Refusals.timedOut(target.host());
    } catch (IOException failure) {
      throw Refusals.unreachable(target.host());
    }
  }

  private OutboundResponse execute(UrlPolicy.Target target, String method, Map<String, String> headers,
      byte[] body, String contentType) throws IOException {
    Request.Builder request = new Request.Builder().url(HttpUrl.get(target.url()));
    headers.forEach(request::header);
    boolean hasBody = body.length > 0 || method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    request.method(method, hasBody
        ? RequestBody.create(body, contentType == null ? null : MediaType.parse(contentType)) : null);
    okhttp3.Call call = client.newCall(request.build());
    try (Response response = call.execute()) {
      boolean redirect = maxRedirects > 0 && REDIRECTS.contains(response.code()) && response.header("Location") != null;
      byte[] bytes = redirect ? new byte[0] : read(call, response.body(), target.host());
      OutboundResponse answer = new OutboundResponse(response.code(), headers(response.headers()), bytes);
      if (response.code() >= 500) {
        throw new ServerFailure(answer);
      }
      return answer;
    } catch (IOException e) {
      Blocked blocked = blockedIn(e);
      if (blocked != null) {
        // A refusal is the policy's answer, not the upstream failing: the breaker counts neither.
        throw Refusals.blocked(blocked);
      }
      throw e;
    }
  }

  private byte[] read(okhttp3.Call call, ResponseBody body, String host) throws IOException {
    if (body == null) {
      return new byte[0];
    }
    if (body.contentLength() > maxResponseBytes) {
      call.cancel();
      throw Refusals.tooLarge(host, maxResponseBytes);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    long total = 0;
    // Counted as read (after any decompression), so a compressed bomb stops at the cap too.
    try (InputStream in = body.byteStream()) {
      for (int n; (n = in.read(buffer)) != -1; ) {
        total += n;
        if (total > maxResponseBytes) {
          call.cancel();
          throw Refusals.tooLarge(host, maxResponseBytes);
        }
        out.write(buffer, 0, n);
      }
    }
    return out.toByteArray();
  }

  private static Map<String, java.util.List<String>> headers(Headers headers) {
    return headers.toMultimap();
  }

  private static Blocked blockedIn(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof Blocked blocked) {
        return blocked;
      }
      for (Throwable suppressed : t.getSuppressed()) {
        if (suppressed instanceof Blocked blocked) {
          return blocked;
        }
      }
    }
    return null;
  }

  /** The underlying client, for the tests of the defaults. */
  OkHttpClient okhttp() {
    return client;
  }

  /** Closes the connections and the client's threads. */
  @Override
  public void close() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }

  /** A 5xx answer: a failure for the breaker, returned to the caller all the same. */
  private static final class ServerFailure extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient OutboundResponse response;

    ServerFailure(OutboundResponse response) {
      super("status " + response.status());
      this.response = response;
    }
  }

  /** Options of an {@link OutboundHttp}; every one has a safe default. */
  public static final class Builder {
    private UrlPolicy policy = UrlPolicy.defaults();
    private HostResolver resolver = HostResolver.system();
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration readTimeout = Duration.ofSeconds(10);
    private Duration totalTimeout = Duration.ofSeconds(30);
    private long maxResponseBytes = 1024 * 1024;
    private int maxRedirects = 3;
    private Upstreams upstreams;

    private Builder() {}

    /** Where the client may call (default {@link UrlPolicy#defaults()}). */
    public Builder policy(UrlPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** How host names are looked up (default the system resolver); every answer is vetted. */
    public Builder resolver(HostResolver resolver) {
      this.resolver = Objects.requireNonNull(resolver, "resolver");
      return this;
    }

    /**
     * The connect timeout (default 5 s), the timeout of each read and write (default 10 s), and
     * the deadline of the whole call, the body included (default 30 s): a slow-drip answer
     * stops at the total.
     */
    public Builder timeouts(Duration connect, Duration read, Duration total) {
      this.connectTimeout = positive(connect, "connect");
      this.readTimeout = positive(read, "read");
      this.totalTimeout = positive(total, "total");
      return this;
    }

    /** The most bytes of an answer read (default 1 MiB); past it, {@code UPSTREAM_TOO_LARGE}. */
    public Builder maxResponseBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxResponseBytes must be positive, got " + bytes);
      }
      this.maxResponseBytes = bytes;
      return this;
    }

    /** How many redirects are followed (default 3; 0 returns a redirect as the answer). */
    public Builder maxRedirects(int redirects) {
      if (redirects < 0 || redirects > 20) {
        throw new IllegalArgumentException("maxRedirects must be 0..20, got " + redirects);
      }
      this.maxRedirects = redirects;
      return this;
    }

    /** Runs every call through {@code upstreams}' circuit breaker of its host (none by default). */
    public Builder breakers(Upstreams upstreams) {
      this.upstreams = Objects.requireNonNull(upstreams, "upstreams");
      return this;
    }

    /** The client. */
    public OutboundHttp build() {
      return new OutboundHttp(this);
    }

    private static Duration positive(Duration duration, String name) {
      Objects.requireNonNull(duration, name);
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("The " + name + " timeout must be positive, got " + duration);
      }
      return duration;
    }
  }
}
