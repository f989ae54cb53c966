package dev.mcpfusion.maven;

import java.util.List;
import java.util.TreeSet;

/**
 * The {@code Upstream} class written beside the router: the one place the generated actions call
 * out, through fusion-outbound's {@code OutboundHttp} (so its URL policy, byte cap, timeouts and
 * breakers apply), and where an upstream's answer becomes a JSON tree or a value — and its
 * failure an envelope that repeats the document's words, never the upstream's body.
 */
final class UpstreamSource {
  private UpstreamSource() {}

  static String write(ModelSources sources) {
    TreeSet<String> imports = new TreeSet<>(List.of("com.fasterxml.jackson.annotation.JsonInclude",
        "dev.mcpfusion.core.FusionError", "dev.mcpfusion.outbound.OutboundHttp",
        "dev.mcpfusion.outbound.OutboundRequest", "dev.mcpfusion.outbound.OutboundResponse",
        "java.net.URLEncoder", "java.nio.charset.StandardCharsets", "java.util.ArrayList",
        "java.util.Collection", "java.util.List", "java.util.Map",
        "java.util.Objects", "java.util.TreeMap", "tools.jackson.core.JacksonException",
        "tools.jackson.databind.JsonNode", "tools.jackson.databind.json.JsonMapper"));
    return sources.start(imports).append(template("Upstream.java.txt")).toString();
  }

  /** A class-path resource of this package: the fixed part of a generated source. */
  static String template(String name) {
    try (java.io.InputStream in = UpstreamSource.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("The plugin jar lacks its resource " + name);
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

}
