package dev.mcpfusion.samples.billing;

import dev.mcpfusion.auth.ApiKeys;
import dev.mcpfusion.auth.OAuth;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.util.function.UnaryOperator;

/**
 * Runs the billing connector: over stdio by default ({@code java -jar fusion-sample-billing.jar
 * [--grouped]}), or over Streamable HTTP on 127.0.0.1 with {@code --http PORT} (endpoint
 * {@code http://127.0.0.1:PORT/mcp}; SIGTERM stops it gracefully); {@code --bind 0.0.0.0} listens on
 * every interface and {@code --allowed-host NAME} accepts a Host name clients reach it by (in
 * Kubernetes, the Service's name: {@code deploy/billing.yaml}). stdout carries the stdio
 * protocol alone; everything else goes to stderr. {@code FUSION_TRACE=logging} logs a span per
 * request to stderr; {@code --metrics PORT} serves the MCP metrics as Prometheus text at
 * {@code http://127.0.0.1:PORT/metrics} ({@link BillingMetrics}).
 *
 * <p>Protected over HTTP with {@code --auth-issuer URL --resource URL}: an OAuth 2.1 resource
 * server that accepts access tokens of that issuer whose audience is the resource URI, and serves
 * the protected resource metadata (its {@code scopes_supported}: {@code invoices:read}, which every
 * billing tool, prompt and resource needs, and {@code invoices:write}, which voiding needs too);
 * {@code --api-key-file PATH} accepts the API keys whose hashes the file lists, each with its scopes
 * (with or without an issuer).
 *
 * <p>One instance of a fleet with {@code --http PORT --redis URL}: sessions, resumable streams and
 * tasks are kept in that Redis ({@link BillingFleet}), so instances behind a load balancer without
 * session affinity serve each other's sessions, and a resource subscriber hears of a mutation made
 * through any instance. {@code --rate-limit N/PERIOD} (with {@code --redis}) allows each caller at
 * most N tool calls per period across the fleet, and tells an agent beyond it when to retry.
 */
public final class BillingMain {
  private static final String USAGE =
      "Usage: java -jar fusion-sample-billing.jar [--grouped | --flat] [--http PORT"
          + " [--bind ADDRESS] [--allowed-host HOST]... [--auth-issuer URL] [--api-key-file PATH]"
          + " [--resource URL] [--redis URL [--rate-limit N/PERIOD]]] [--metrics PORT]";
  /** {@code --rate-limit}: calls per period, the period in seconds ({@code s}) or minutes ({@code m}). */
  private static final java.util.regex.Pattern RATE =
      java.util.regex.Pattern.compile("([1-9][0-9]{0,4})/([1-9][0-9]{0,3})([sm])");

  private BillingMain() {}

  public static void main(String[] args) throws Exception {
    FusionServer.reserveStdout();
    Exposition exposition = Exposition.FLAT;
    Integer httpPort = null;
    String issuer = null;
    String resource = null;
    String apiKeyFile = null;
    Integer metricsPort = null;
    String redisUrl = null;
    java.util.regex.Matcher rate = null;
    String bind = null;
    java.util.List<String> allowedHosts = new java.util.ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--grouped" -> exposition = Exposition.GROUPED;
        case "--flat" -> exposition = Exposition.FLAT;
        case "--http" -> {
          if (i + 1 >= args.length || !args[i + 1].matches("\\d{1,5}")
              || Integer.parseInt(args[i + 1]) > 65535) {
            fail("--http needs a port number between 0 and 65535.");
          }
          httpPort = Integer.parseInt(args[++i]);
        }
        case "--bind" -> bind = value(args, ++i, "--bind needs the address to listen on (e.g. 0.0.0.0).");
        case "--allowed-host" -> allowedHosts.add(value(args, ++i,
            "--allowed-host needs a Host name clients reach this server by (e.g. billing)."));
        case "--auth-issuer" -> issuer = value(args, ++i, "--auth-issuer needs the issuer's URL.");
        case "--resource" -> resource = value(args, ++i, "--resource needs this server's URL.");
        case "--api-key-file" -> apiKeyFile = value(args, ++i, "--api-key-file needs a path.");
        case "--redis" -> redisUrl = value(args, ++i, "--redis needs the Redis URL, redis://host:port.");
        case "--rate-limit" -> {
          rate = RATE.matcher(i + 1 < args.length ? args[++i] : "");
          if (!rate.matches()) {
            fail("--rate-limit needs N/PERIOD: at most N calls (1 to 99999) per PERIOD for each"
                + " caller, the period in seconds or minutes (e.g. 100/1m, 5/10s).");
          }
        }
        case "--metrics" -> {
          if (i + 1 >= args.length || !args[i + 1].matches("\\d{1,5}")
              || Integer.parseInt(args[i + 1]) > 65535) {
            fail("--metrics needs a port number between 0 and 65535.");
          }
          metricsPort = Integer.parseInt(args[++i]);
        }
        default -> fail("Unknown option '" + args[i] + "'.");
      }
    }
    FusionServer.Builder builder = BillingConnector.builder(InvoiceStore.sample(), exposition)
        .tracer(BillingTracing.fromEnvironment());
    if (metricsPort != null) {
      BillingMetrics metrics = BillingMetrics.serve(metricsPort);
      builder.meter(metrics.meter());
      System.err.println("billing metrics at " + metrics.endpoint());
    }
    UnaryOperator<HttpOptions> fleet = UnaryOperator.identity();
    if (rate != null && redisUrl == null) {
      fail("--rate-limit needs --redis: the limit is counted across the fleet, in Redis.");
    }
    if (redisUrl != null) {
      if (httpPort == null) {
        fail("--redis needs --http: a fleet shares HTTP sessions (stdio has one client per process).");
      }
      try {
        fleet = rate == null ? BillingFleet.share(redisUrl, builder)
            : BillingFleet.share(redisUrl, builder, Integer.parseInt(rate.group(1)),
                java.time.Duration.ofSeconds(Long.parseLong(rate.group(2))
                    * ("m".equals(rate.group(3)) ? 60 : 1)));
      } catch (IllegalArgumentException e) {
        fail(e.getMessage());
      }
    }
    FusionServer server = builder.build();
    if (httpPort == null) {
      server.serveStdio();
      return;
    }
    // The store is in memory: its look-ups never wait, so they are answered on the I/O thread
    // (a fleet's Redis stores or an authenticator send every request to the pool anyway).
    HttpOptions options = fleet.apply(HttpOptions.port(httpPort).answerOnIoThread(true)
        .allowedHosts(allowedHosts.toArray(String[]::new)));
    if (bind != null) {
      options = options.bindAddress(bind);
    }
    if (issuer != null || apiKeyFile != null) {
      if (resource == null) {
        fail("--auth-issuer and --api-key-file need --resource, the URL clients reach this server at"
            + " (tokens must name it as their audience).");
      }
      try {
        ApiKeys keys = apiKeyFile == null ? null : ApiKeys.load(java.nio.file.Path.of(apiKeyFile));
        OAuth oauth = issuer == null ? OAuth.apiKeysOnly(keys) : OAuth.issuer(issuer);
        if (issuer != null && keys != null) {
          oauth = oauth.apiKeys(keys);
        }
        options = options.auth(oauth.resource(resource)
            .scopes("invoices:read", "invoices:write").authenticator());
      } catch (IllegalArgumentException | java.io.IOException e) {
        fail(e.getMessage());
      }
    } else if (resource != null) {
      fail("--resource needs --auth-issuer or --api-key-file.");
    }
    FusionHttpServer http = FusionHttp.serve(server, options);
    System.err.println("billing MCP server listening on " + http.endpoint());
    http.join();
  }

  private static String value(String[] args, int i, String missing) {
    if (i >= args.length || args[i].startsWith("--")) {
      fail(missing);
    }
    return args[i];
  }

  private static void fail(String message) {
    System.err.println(message + " " + USAGE);
    System.exit(2);
  }
}
