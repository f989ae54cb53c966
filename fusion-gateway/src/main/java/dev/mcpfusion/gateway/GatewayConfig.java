package dev.mcpfusion.gateway;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.resilience.UpstreamPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The gateway's config file, YAML (SnakeYAML's safe loader: plain maps, lists and scalars, no
 * objects) or JSON for a {@code .json} file:
 *
 * <pre>
 * name: gateway                 # optional, the server name
 * connectTimeout: 5s            # optional
 * callTimeout: 30s              # optional
 * sessions: {max: 100, idle: 5m}
 * breaker: {failureRate: 50, window: 10, minimumCalls: 5, openFor: 30s}
 * delegation: {keyFile: gateway.key, ttl: 60s}   # optional: the handoff tools; the file holds
 *                                                # a base64 key of at least 32 bytes
 * upstreams:
 *   billing:
 *     command: [java, -jar, billing.jar]
 *   crm:
 *     url: http://127.0.0.1:8081/mcp
 *     headers: {Authorization: Bearer ...}
 * </pre>
 *
 * Unknown keys are refused, naming the key and the known ones: a misspelt limit never silently
 * keeps its default.
 */
final class GatewayConfig {
  private static final Set<String> TOP = Set.of("name", "connectTimeout", "callTimeout", "sessions",
      "breaker", "delegation", "upstreams");
  private static final Set<String> DELEGATION = Set.of("keyFile", "ttl");
  private static final Set<String> UPSTREAM = Set.of("command", "url", "headers");
  private static final Set<String> SESSIONS = Set.of("max", "idle");
  private static final Set<String> BREAKER = Set.of("failureRate", "window", "minimumCalls",
      "openFor", "trialCalls");

  private GatewayConfig() {}

  static void apply(Path file, Gateway.Builder builder) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String where = file.getFileName().toString();
    Object tree;
    try {
      tree = file.toString().endsWith(".json") ? Json.parse(text)
          : new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (IllegalArgumentException | YAMLException e) {
      throw new IllegalArgumentException(where + " is not valid " + (file.toString().endsWith(".json")
          ? "JSON" : "YAML") + ": " + e.getMessage(), e);
    }
    Map<String, Object> top = map(tree, where, TOP);
    Path directory = file.toAbsolutePath().getParent();
    builder.directory(directory);
    if (top.get("name") != null) {
      builder.name(text(top.get("name"), where + ": name"));
    }
    if (top.get("connectTimeout") != null) {
      builder.connectTimeout(duration(top.get("connectTimeout"), where + ": connectTimeout"));
    }
    if (top.get("callTimeout") != null) {
      builder.callTimeout(duration(top.get("callTimeout"), where + ": callTimeout"));
    }
    if (top.get("sessions") != null) {
      Map<String, Object> sessions = map(top.get("sessions"), where + ": sessions", SESSIONS);
      builder.sessions(
          sessions.get("max") == null ? 100 : integer(sessions.get("max"), where + ": sessions.max"),
          sessions.get("idle") == null ? Duration.ofMinutes(5)
              : duration(sessions.get("idle"), where + ": sessions.idle"));
    }
    if (top.get("breaker") != null) {
      builder.breaker(breaker(map(top.get("breaker"), where + ": breaker", BREAKER), where));
    }
    if (top.get("delegation") != null) {
      Map<String, Object> delegation = map(top.get("delegation"), where + ": delegation", DELEGATION);
      if (delegation.get("keyFile") == null) {
        throw new IllegalArgumentException(where + ": delegation.keyFile is required: a file holding"
            + " a base64 key of at least 32 bytes (openssl rand -base64 32 > gateway.key)");
      }
      Path keyFile = directory.resolve(text(delegation.get("keyFile"), where + ": delegation.keyFile"));
      byte[] key;
      try {
        key = java.util.Base64.getDecoder().decode(Files.readString(keyFile).strip());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": delegation.keyFile " + keyFile.getFileName()
            + " does not hold a base64 key", e);
      }
      try {
        builder.delegation(key, delegation.get("ttl") == null ? Duration.ofSeconds(60)
            : duration(delegation.get("ttl"), where + ": delegation.ttl"));
      } catch (IllegalArgumentException e) {
        throw e.getMessage().startsWith(where) ? e
            : new IllegalArgumentException(where + ": delegation: " + e.getMessage(), e);
      }
    }
    Map<String, Object> upstreams = map(top.get("upstreams"), where + ": upstreams", null);
    if (upstreams.isEmpty()) {
      throw new IllegalArgumentException(where + ": upstreams is empty; list at least one, e.g."
          + " upstreams: {billing: {command: [java, -jar, billing.jar]}}");
    }
    for (Map.Entry<String, Object> entry : upstreams.entrySet()) {
      String at = where + ": upstreams." + entry.getKey();
      Map<String, Object> upstream = map(entry.getValue(), at, UPSTREAM);
      Object command = upstream.get("command");
      Object url = upstream.get("url");
      if ((command == null) == (url == null)) {
        throw new IllegalArgumentException(at + ": give either command (a program speaking MCP on"
            + " stdio, as a list: [java, -jar, server.jar]) or url (a Streamable HTTP endpoint)");
      }
      try {
        if (command != null) {
          if (upstream.get("headers") != null) {
            throw new IllegalArgumentException(at + ": headers go with url, not with command");
          }
          builder.stdio(entry.getKey(), commandLine(command, at + ".command"));
        } else {
          Map<String, String> headers = new LinkedHashMap<>();
          if (upstream.get("headers") != null) {
            map(upstream.get("headers"), at + ".headers", null)
                .forEach((k, v) -> headers.put(k, text(v, at + ".headers." + k)));
          }
          builder.http(entry.getKey(), text(url, at + ".url"), headers);
        }
      } catch (IllegalArgumentException e) {
        throw e.getMessage().startsWith(where) ? e
            : new IllegalArgumentException(where + ": " + e.getMessage(), e);
      }
    }
  }

  private static UpstreamPolicy breaker(Map<String, Object> breaker, String where) {
    UpstreamPolicy policy = UpstreamPolicy.defaults();
    try {
      if (breaker.get("failureRate") != null) {
        policy = policy.failureRatePercent(integer(breaker.get("failureRate"),
            where + ": breaker.failureRate"));
      }
      if (breaker.get("window") != null || breaker.get("minimumCalls") != null) {
        int window = breaker.get("window") == null ? policy.windowSize()
            : integer(breaker.get("window"), where + ": breaker.window");
        int minimum = breaker.get("minimumCalls") == null ? Math.min(policy.minimumCalls(), window)
            : integer(breaker.get("minimumCalls"), where + ": breaker.minimumCalls");
        policy = policy.window(window, minimum);
      }
      if (breaker.get("openFor") != null) {
        policy = policy.openFor(duration(breaker.get("openFor"), where + ": breaker.openFor"));
      }
      if (breaker.get("trialCalls") != null) {
        policy = policy.trialCalls(integer(breaker.get("trialCalls"), where + ": breaker.trialCalls"));
      }
    } catch (IllegalArgumentException e) {
      throw e.getMessage().startsWith(where) ? e
          : new IllegalArgumentException(where + ": breaker: " + e.getMessage(), e);
    }
    return policy;
  }

  private static List<String> commandLine(Object value, String where) {
    if (!(value instanceof List<?> list) || list.isEmpty()) {
      throw new IllegalArgumentException(where + ": expected the program and its arguments as a"
          + " list, e.g. [java, -jar, server.jar]");
    }
    List<String> out = new ArrayList<>();
    for (Object item : list) {
      out.add(text(item, where));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value, String where, Set<String> known) {
    if (!(value instanceof Map<?, ?> raw)) {
      throw new IllegalArgumentException(where + ": expected a mapping but was "
          + (value == null ? "nothing" : "'" + value + "'"));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : raw.entrySet()) {
      String key = String.valueOf(entry.getKey());
      if (known != null && !known.contains(key)) {
        throw new IllegalArgumentException(where + ": unknown key '" + key + "'; expected one of "
            + new java.util.TreeSet<>(known));
      }
      out.put(key, entry.getValue());
    }
    return out;
  }

  private static String text(Object value, String where) {
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return String.valueOf(value);
    }
    throw new IllegalArgumentException(where + ": expected a text value but was "
        + (value == null ? "nothing" : "'" + value + "'"));
  }

  private static int integer(Object value, String where) {
    if (value instanceof Number n && n.doubleValue() == n.intValue()) {
      return n.intValue();
    }
    throw new IllegalArgumentException(where + ": expected a whole number but was '" + value + "'");
  }

  private static Duration duration(Object value, String where) {
    return Durations.parse(text(value, where), where);
  }
}
